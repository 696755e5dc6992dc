"""Compressed delivery: the build writes <file>.gz and <file>.br beside every large compressible file
(build step 'compress'), each decompressing to exactly the file, the same bytes on every build; and the
Hosting page's nginx, Apache and Caddy configurations, run as they are printed by the real servers,
send them to a browser that accepts them with the file's own Content-Type."""
from __future__ import annotations

import gzip
import html as h
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest


# Files a reader's browser fetches that must have both variants (their sizes are far above the threshold)
MUST = ["assets/vendor/pyodide/pyodide.asm.wasm", "assets/vendor/pyodide/pyodide.asm.mjs", "search/search_index.json",
        "index.html", "products/policy/policy-3-1-5/index.html", "assets/vendor/vega/vega.min.js",
        "downloads/benchmark-atlas.sqlite"]  # 2 MiB of SQLite pages: about a sixth of that compressed
STDLIB = "assets/vendor/pyodide/python_stdlib.zip"  # stored, not deflated, by the build (atlas.assets.stdlib_zip)
ROOT = Path(__file__).resolve().parent.parent
TEXT_OR_CODE = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".txt", ".csv", ".map", ".wasm", ".pack",
                ".marshal", ".py", ".pyc", ".sqlite"}


def _brotli_decompress(paths: list[Path]) -> dict[str, str]:
    """sha256 of each .br file's decompressed bytes, by Node's zlib (Python's standard library has no Brotli)."""
    script = """import {readFileSync} from 'node:fs'; import {createHash} from 'node:crypto'; import zlib from 'node:zlib';
const out = {}; for (const p of readFileSync(0, 'utf8').split('\\n').filter(Boolean))
  out[p] = createHash('sha256').update(zlib.brotliDecompressSync(readFileSync(p))).digest('hex');
process.stdout.write(JSON.stringify(out));"""
    r = subprocess.run(["node", "--input-type=module", "-e", script], input="\n".join(map(str, paths)),
                       capture_output=True, text=True, check=True, timeout=300)
    return json.loads(r.stdout)


def test_every_large_compressible_file_has_gz_and_br_of_the_same_bytes(built_site):
    import hashlib
    files = [f for f in built_site.rglob("*") if f.is_file() and f.suffix not in (".gz", ".br")]
    large = [f for f in files if (f.suffix in TEXT_OR_CODE or f == built_site / STDLIB) and f.stat().st_size >= 1024]
    assert len(large) > 400
    for m in MUST:
        assert built_site / m in large, m
    missing = [f for f in large if not (f.with_name(f.name + ".gz").is_file() and f.with_name(f.name + ".br").is_file())]
    assert missing == []
    # nothing else: small files, the datasets' zip, the workbook and the images are sent as they are
    # (sitemap.xml.gz is MkDocs' own, for search engines)
    others = {f.with_name(f.name + ext) for f in files if f not in large for ext in (".gz", ".br")} - {built_site / "sitemap.xml.gz"}
    assert [f for f in others if f.exists()] == []
    zips = [f.relative_to(built_site).as_posix() for f in files if f.suffix == ".zip"]
    assert STDLIB in zips
    assert [z for z in zips if (built_site / (z + ".br")).exists()] == [STDLIB]
    for f in large:
        raw = f.read_bytes()
        gz = f.with_name(f.name + ".gz").read_bytes()
        assert gzip.decompress(gz) == raw, f
        assert len(gz) < len(raw), f
        assert gz[4:8] == b"\0\0\0\0", f"{f}.gz has a time stamp"  # the same bytes on every build
    brs = _brotli_decompress([f.with_name(f.name + ".br") for f in large])
    for f in large:
        assert brs[str(f.with_name(f.name + ".br"))] == hashlib.sha256(f.read_bytes()).hexdigest(), f
    wasm = built_site / MUST[0]
    assert (wasm.with_name(wasm.name + ".br").stat().st_size < wasm.with_name(wasm.name + ".gz").stat().st_size
            < wasm.stat().st_size * 0.4)
    # The standard library, stored so that it compresses as one text: its .br (Brotli quality 11) is smaller than npm's
    # deflated zip by at least 0.9 MB (measured 1,591,389 against 2,545,637 bytes with Node's zlib, Pyodide 314.0.7).
    npm = (ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").stat().st_size
    assert (built_site / (STDLIB + ".br")).stat().st_size < npm - 900_000


def test_the_same_files_compress_to_the_same_bytes(built_site, tmp_path):
    """A second compression of some of the site's files (as the next build does) gives byte-identical .gz and .br."""
    from atlas.compress import precompress
    for m in MUST[2:5]:
        (tmp_path / m).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built_site / m, tmp_path / m)
    assert precompress(tmp_path, cache=None)["files"] == 3
    for m in MUST[2:5]:
        for ext in (".gz", ".br"):
            assert (tmp_path / (m + ext)).read_bytes() == (built_site / (m + ext)).read_bytes(), m + ext


def test_the_cache_gives_the_same_bytes_and_compresses_a_changed_file_again(built_site, tmp_path):
    """Files compressed before are copied from the build's compression cache, byte for byte what compressing them
    gives; a file whose bytes changed is compressed anew (its .gz and .br decompress to the new bytes)."""
    import hashlib
    from atlas.compress import precompress
    cache = tmp_path / "cache"
    for name in ("a", "b", "c"):
        for m in MUST[2:5]:
            (tmp_path / name / m).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(built_site / m, tmp_path / name / m)
    changed = tmp_path / "c" / MUST[3]
    changed.write_bytes(changed.read_bytes() + b"<!-- changed -->\n")
    assert precompress(tmp_path / "a", cache)["cached"] == 0
    assert precompress(tmp_path / "b", cache)["cached"] == 3
    assert precompress(tmp_path / "c", cache)["cached"] == 2
    for m in MUST[2:5]:
        for ext in (".gz", ".br"):
            assert (tmp_path / "b" / (m + ext)).read_bytes() == (built_site / (m + ext)).read_bytes(), m + ext
    assert gzip.decompress(changed.with_name(changed.name + ".gz").read_bytes()) == changed.read_bytes()
    br = changed.with_name(changed.name + ".br")
    assert _brotli_decompress([br])[str(br)] == hashlib.sha256(changed.read_bytes()).hexdigest()
    assert not list(cache.glob("*.tmp")) and len(list(cache.iterdir())) == 8  # 4 contents, .gz and .br each


# ---- the Hosting page's configurations on the real servers ------------------------------------------------

PREFIX = "/atlas"
"""The sub-path the Hosting page's configurations serve the site under (its address /atlas/)."""
SERVED = {  # path -> the Content-Type the server must send, compressed or not
    "assets/vendor/pyodide/pyodide.asm.wasm": "application/wasm",
    "assets/vendor/pyodide/pyodide.asm.mjs": "text/javascript",
    "search/search_index.json": "application/json",
    "products/policy/policy-3-1-5/index.html": "text/html",
    "downloads/benchmark-atlas.sqlite": "application/vnd.sqlite3",
}


def served(built_site: Path) -> dict[str, str]:
    """SERVED, and the footprint calculator's code pack and data bundle as the build's manifest names them."""
    manifest = json.loads((built_site / "assets" / "py" / "manifest.json").read_text(encoding="utf-8"))
    return {**SERVED, f"assets/py/{manifest['packs']['footprint']['pack']}": "application/octet-stream",
            f"assets/data/{manifest['bundles']['footprint']['marshal']}": "application/octet-stream"}


def _conf(built_site: Path, lang: str) -> str:
    text = (built_site / "about" / "hosting" / "index.html").read_text(encoding="utf-8")
    block = dict(re.findall(r'<code class="language-(nginx|apache|caddy)">(.*?)</code>', text, re.S))[lang]
    return h.unescape(re.sub(r"<[^>]+>", "", block))  # without the highlighter's spans, as printed


def root_form(conf: str) -> str:
    """A configuration as the Hosting page says to serve the site at the root of a host: without the line under
    '# sub-path only' (nor that comment), '/' written for '/atlas/'."""
    lines = conf.split("\n")
    i = next(n for n, line in enumerate(lines) if line.strip().startswith("# sub-path only"))
    return "\n".join(lines[:i] + lines[i + 2:]).replace(PREFIX + "/", "/")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def readable_copy(site: Path, paths=None) -> Path:
    """The built ``site`` (or only ``paths`` of it, each with its .gz and .br) in a folder every user can read, as
    nginx's and Apache's workers are not root: hard links where the file system allows, copies elsewhere. The
    caller removes ``result.parent``."""
    d = Path(tempfile.mkdtemp(prefix="atlas-hosting-"))
    d.chmod(0o755)
    out = d / "site"

    def link(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copyfile(src, dst)
    if paths is None:
        shutil.copytree(site, out, copy_function=link)
    else:
        for p in paths:
            for ext in ("", ".gz", ".br"):
                if (site / (p + ext)).exists():
                    (out / p).parent.mkdir(parents=True, exist_ok=True)
                    link(site / (p + ext), out / (p + ext))
    for f in [out, *out.rglob("*")]:
        if f.is_dir():
            f.chmod(0o755)
        elif f.stat().st_mode & 0o444 != 0o444:
            f.chmod(0o644)
    return out


@pytest.fixture(scope="module")
def small_site(built_site):
    """The served files (with their .gz and .br), the Hosting page and the 404 page, readable by every user."""
    site = readable_copy(built_site, [*served(built_site), "about/hosting/index.html", "404.html"])
    yield site
    shutil.rmtree(site.parent, ignore_errors=True)


def start(cmd: list[str], port: int, log: Path) -> subprocess.Popen:
    """Starts a server (``cmd``) and waits until it listens on ``port``; fails the test with its log if it stops."""
    proc = subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    pytest.fail(f"{cmd[0]} did not start: {log.read_text()[-2000:]}")


def _nginx(site: Path, conf: str, port: int) -> list[str]:
    d = site.parent
    shutil.copyfile("/etc/nginx/mime.types", d / "mime.types")
    (d / "nginx.conf").write_text(f"""daemon off; master_process off; pid {d}/nginx.pid; error_log {d}/nginx.err;
events {{}}
http {{ access_log off; client_body_temp_path {d}; proxy_temp_path {d}; fastcgi_temp_path {d}; uwsgi_temp_path {d}; scgi_temp_path {d};
server {{ listen 127.0.0.1:{port};
{conf.replace('/srv/atlas-site', str(site))}
}} }}
""")
    return ["/usr/sbin/nginx", "-p", str(d), "-c", str(d / "nginx.conf")]


def _apache(site: Path, conf: str, port: int) -> list[str]:
    d = site.parent
    mods = "".join(f"LoadModule {m}_module /usr/lib/apache2/modules/mod_{m}.so\n"
                   for m in ("mpm_event", "authz_core", "mime", "headers", "rewrite", "env", "dir", "alias"))
    (d / "httpd.conf").write_text(f"""ServerRoot {d}
{mods}Listen 127.0.0.1:{port}
ServerName 127.0.0.1
PidFile {d}/httpd.pid
ErrorLog {d}/httpd.err
DefaultRuntimeDir {d}
Mutex file:{d} default
TypesConfig /etc/mime.types
User nobody
Group nogroup
{conf.replace('/srv/atlas-site', str(site))}
""")
    return ["/usr/sbin/apache2", "-f", str(d / "httpd.conf"), "-DFOREGROUND"]


def _caddy(site: Path, conf: str, port: int) -> list[str]:
    d = site.parent
    (d / "Caddyfile").write_text("{\n  admin off\n  auto_https off\n}\n"
                                 + conf.replace("/srv/atlas-site", str(site)).replace("intranet.example.org", f"http://127.0.0.1:{port}"))
    return ["/usr/bin/caddy", "run", "--adapter", "caddyfile", "--config", str(d / "Caddyfile")]


BINARY = {"nginx": "/usr/sbin/nginx", "apache": "/usr/sbin/apache2", "caddy": "/usr/bin/caddy"}
SERVERS = list(BINARY)


def server_cmd(server: str, site: Path, conf: str, port: int) -> list[str]:
    """The command that runs ``server`` with the Hosting page's configuration ``conf`` (inside this machine's minimal
    frame: its listening address, modules and files in ``site.parent``) serving ``site``."""
    return {"nginx": _nginx, "apache": _apache, "caddy": _caddy}[server](site, conf, port)


def check_cmd(server: str, site: Path, conf: str, port: int) -> list[str]:
    """The server's own check of that configuration: ``nginx -t``, ``apache2 -t``, ``caddy validate``."""
    cmd = server_cmd(server, site, conf, port)
    if server == "nginx":
        return [cmd[0], "-t", *cmd[1:]]
    if server == "apache":
        return [cmd[0], "-t", "-f", cmd[2]]
    return [cmd[0], "validate", *cmd[2:]]


def need(server: str) -> None:
    if not Path(BINARY[server]).exists():
        pytest.skip(f"{BINARY[server]} is not installed (tools/setup.sh --browser installs it)")


# nginx as Debian ships it has gzip_static but not the ngx_brotli module (brotli_static): it sends .gz to a
# browser that accepts both. Apache (mod_rewrite) and Caddy (precompressed) send .br.
BEST = {"nginx": "gzip", "apache": "br", "caddy": "br"}


@pytest.mark.parametrize("server", SERVERS)
def test_each_server_sends_the_precompressed_file_with_its_own_type(built_site, small_site, server, tmp_path):
    """The configuration as printed (under /atlas/): each file from its .br or .gz as the browser accepts, with the
    file's own type (a code pack and a data bundle application/octet-stream, the SQLite file
    application/vnd.sqlite3: not the text/plain nginx gives a name its list lacks, nor Caddy's none)."""
    need(server)
    port = _port()
    proc = start(server_cmd(server, small_site, _conf(built_site, server), port), port, tmp_path / "server.log")
    try:
        for path, ctype in served(built_site).items():
            raw = (small_site / path).read_bytes()
            for accept, want in [("br, gzip", BEST[server]), ("gzip", "gzip"), ("br", "br" if BEST[server] == "br" else None),
                                 (None, None)]:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                c.request("GET", f"{PREFIX}/{path}", headers={"Accept-Encoding": accept} if accept else {})
                r = c.getresponse()
                body = r.read()
                c.close()
                what = f"{server} {path} Accept-Encoding: {accept}"
                assert r.status == 200, what
                assert r.getheader("Content-Type", "").split(";")[0].strip() == ctype, (what, r.getheader("Content-Type"))
                assert r.getheader("Content-Encoding") == want, (what, r.getheader("Content-Encoding"))
                assert body == (raw if want is None else (small_site / (path + {"br": ".br", "gzip": ".gz"}[want])).read_bytes()), what
                if want:
                    assert "accept-encoding" in (r.getheader("Vary") or "").lower(), what
    finally:
        proc.terminate()
        proc.wait(10)
