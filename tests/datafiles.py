"""Plain readers of one document's data/<doc>/ files for value tests (csv + yaml, no validation)."""
import csv

import yaml

from conftest import ROOT


class DocData:
    def __init__(self, doc: str):
        self.out = ROOT / "data" / doc

    def rows(self, kind):
        with open(self.out / f"{kind}.csv", encoding="utf-8") as f:
            return list(csv.DictReader(f))

    def load(self, name):
        return yaml.safe_load((self.out / f"{name}.yaml").read_text(encoding="utf-8"))

    def one(self, kind, **match):
        hits = [r for r in self.rows(kind) if all(r[k] == v for k, v in match.items())]
        assert len(hits) == 1, (kind, match, len(hits))
        return hits[0]
