"""calculators/deployment_report.py: the sentences and cells a reader reads on the "Your deployment" page that the
fresh mutation draw of November 2026 showed unchecked: "(max must rise to N)" in the HPA table, a matched service that
no comparable run prints, the use-against-request rows of every service after one without them, the scaling table's
decimals and nothing after it when there is nothing to warn of, the chart's description, and the file "Export inputs"
writes. Every expected value is worked out by hand in the test's comments (made-up workloads, or the small fixture
tests/fixtures/deployment/get-small.json and top-small.txt, whose figures tests/test_deployment_cli.py works out)."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from calculators import deployment_report as dr

FIX = Path(__file__).parent / "fixtures" / "deployment"
SMALL = {"product": "policy", "call_model": "pcf-sm", "load": "10000", "objects": (FIX / "get-small.json").read_text(),
         "top": (FIX / "top-small.txt").read_text()}


def _workload(kind: str, ns: str, name: str, replicas: int, cpu: str, mem: str) -> dict:
    return {"kind": kind, "metadata": {"name": name, "namespace": ns},
            "spec": {"replicas": replicas, "template": {"spec": {"containers": [
                {"name": "app", "resources": {"requests": {"cpu": cpu, "memory": mem}}}]}}}}


# Three Policy services, in the order the service pages' registry lists them (the order the page shows services in):
# sm-service (its Deployment ocpcf-pcf-smservice, 5 pods of 1 core / 1 GiB, each using 2 cores, an HPA of 2-5 at 80 %),
# usage-monitoring (1 pod of 1 core / 1 GiB, no kubectl top line; no PCF SM run prints it) and ndbappmysqld (a
# StatefulSet of 2 pods of 4 cores / 8 GiB, each using 1 core), observed at 10,000 TPS
MADE_UP = {"kind": "List", "items": [
    _workload("Deployment", "p", "ocpcf-pcf-smservice", 5, "1", "1Gi"),
    _workload("Deployment", "p", "usage-monitoring", 1, "1", "1Gi"),
    _workload("StatefulSet", "db", "ndbappmysqld", 2, "4", "8Gi"),
    {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "sm", "namespace": "p"},
     "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "ocpcf-pcf-smservice"}, "minReplicas": 2, "maxReplicas": 5,
              "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization",
                                                                                      "averageUtilization": 80}}}]}}]}
MADE_UP_TOP = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n"
               + "".join(f"p ocpcf-pcf-smservice-5c7d8f9b6-x{i}b2c app 2 1Gi\n" for i in range(5))
               + "".join(f"db ndbappmysqld-{i} app 1 2Gi\n" for i in range(2)))
MADE_UP_PARAMS = {"product": "policy", "call_model": "pcf-sm", "load": "10000", "objects": json.dumps(MADE_UP),
                  "top": MADE_UP_TOP}


def _row(html: str, marker: str) -> str:
    """The table row of ``html`` that carries ``marker`` (a data- attribute), up to its </tr>."""
    return next(x for x in html.split("<tr") if marker in x).split("</tr>")[0]


def test_headline_of_the_made_up_deployment(bundle):
    # 3 workloads (the HPA is not one) all matched: 5 + 1 + 2 x 4 = 14 cores requested, 5 x 2 + 2 x 1 = 12 used, per
    # 1K at 10,000 TPS: 1.4 and 1.2; the sm-service HPA is critical (below); ndbappmysqld requests 4 cores per pod and
    # uses 1 (25 %), far less than the vendor's ratio asks (the under-use table)
    html = dr.result_html(dr.compute_web(bundle, MADE_UP_PARAMS))
    assert ('10,000 TPS at your site: 3 workload(s) read, 3 matched to 3 service(s), 0 unmatched; 1.4 cores requested '
            "and 1.2 used per 1K TPS; 1 HPA(s) critical; 1 service(s) using far less than they request.</p>") in html


def test_hpa_held_at_its_max_says_how_far_the_max_must_rise(bundle):
    # 5 pods each using 2 cores of a 1-core request: 200 % of requests, read as 200; 200 / 80 = 2.5 replicas' worth
    # each: ceil(2.5 x 5) = ceil(12.5) = 13 wanted, but maxReplicas is 5: the HPA stays at 5 and the max must rise to
    # 13 (critical, the controller's rule in calculators/overtarget.py)
    html = dr.result_html(dr.compute_web(bundle, MADE_UP_PARAMS))
    row = _row(html, 'data-workload="p/ocpcf-pcf-smservice"')
    assert row == (' data-workload="p/ocpcf-pcf-smservice"><th scope="row">p/ocpcf-pcf-smservice</th><td>sm-service</td>'
                   "<td>5</td><td>2-5</td><td>80</td><td>200</td><td>200</td><td>2.5</td><td>5 (max must rise to 13)</td>"
                   '<td><span class="atlas-sev atlas-sev-critical" data-severity="critical">critical</span></td><td></td>')


def test_a_matched_service_no_comparable_run_prints(bundle):
    # usage-monitoring is a Policy service (its page exists) that none of PCF SM's comparable runs (Policy 3.2.3,
    # 3.2.4, 3.2.8, 3.2.10, 3.5.1, 3.5.2) prints: every vendor cell is a dash, the nearest run says so. Yours: 1 pod,
    # 1 core and 1 GiB requested at 10,000 TPS: 0.1 per 1K; no kubectl top line: used '–'
    html = dr.result_html(dr.compute_web(bundle, MADE_UP_PARAMS))
    assert _row(html, 'data-service="usage-monitoring"') == (
        ' data-service="usage-monitoring"><th scope="row"><a href="../../services/usage-monitoring/">Usage Monitoring</a>'
        "</th><td>1</td><td>0.1</td><td>–</td><td>–</td><td>–</td><td>not in the comparable runs</td><td>–</td>"
        "<td>0.1</td><td>–</td>")


def test_use_against_request_rows_follow_a_service_without_them(bundle):
    # usage-monitoring, listed between sm-service and ndbappmysqld, has no comparable run to compare with: the rows of
    # ndbappmysqld after it are still shown. Yours per pod: sm-service 2 of 1 core used (200 %), ndbappmysqld 1 of 4
    # (25 %); neither has a vendor memory reading in the nearest run, so CPU rows only
    html = dr.result_html(dr.compute_web(bundle, MADE_UP_PARAMS))
    body = re.search(r'id="deployment-under">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    assert re.findall(r'data-service="([^"]+)" data-resource="(\w+)"', body) == [("sm-service", "cpu"),
                                                                                 ("ndbappmysqld", "cpu")]
    row = _row(html, 'data-service="ndbappmysqld" data-resource="cpu"')
    assert "<td>cpu</td><td>25 %</td>" in row and "<td>4 cores</td>" in row
    assert row.endswith("<td>far less than requested</td>")
    assert "<td>200 %</td>" in _row(html, 'data-service="sm-service" data-resource="cpu"')


def test_scaling_table_decimals_and_nothing_after_it(bundle):
    # The small fixture at 100,000 TPS on 2 sites (tests/test_deployment_cli.py works it out): 35.75 cores per site,
    # 71.5 on both. Memory per site: 7 ingress-gateway pods x (6 GiB + 512 MiB) = 45.5 GiB, plus ndbmtd's 4 x
    # 0.1201171875 = 0.48046875 GiB (a database service, not scaled by load): 45.98046875 GiB. The table shows one
    # decimal (35.8, 46, 71.5); no node size given: nodes '–'; yours is not partial: the note is empty
    out = dr.compute_web(bundle, dict(SMALL, target_load="100000", target_sites="2"))
    html = dr.result_html(out)
    assert "<p>Sized for 100,000 TPS on 2 site(s) (5 x your load per site).</p>" in html
    assert ('<tr><th scope="row">From your deployment</th><td>35.8</td><td>46</td><td>–</td><td>71.5</td><td></td></tr>'
            in html)
    # the vendor's runs sized the request (no error), and yours has no warning: the table ends the section, the
    # method note follows it directly
    table = html.index('id="deployment-scale"')
    assert html[table:].split("</tbody></table></div>", 1)[1].startswith('<p class="atlas-note">Your site: ')


def test_chart_describes_itself_for_screen_readers(bundle):
    # Vega-Lite's description is the chart's accessible text (its aria-label): it names both panels
    spec = dr.result_chart(bundle, dr.compute_web(bundle, SMALL))
    assert spec["description"] == ("CPU cores per 1K of load for every vendor run and your deployment; per matched "
                                   "service, cores used per 1K.")


def test_export_file_keeps_the_workloads_as_given_and_carries_the_points(bundle):
    # the file "Export inputs" writes: the form's fields as strings (never the parsed objects or the page's calc
    # field), the workloads as the reader gave them (YAML stays YAML), and the result's points
    yaml_text = "kind: List\nitems: []\n"
    got = dr.export_file(bundle, dict(SMALL, calc="deployment", mapping=None), yaml_text)
    assert got["format"] == "benchmark-atlas-deployment-inputs" and got["version"] == 1
    assert got["inputs"] == {"product": "policy", "call_model": "pcf-sm", "load": "10000", "top": SMALL["top"],
                             "objects_text": yaml_text}
    assert got["points"] is not None
    # nothing pasted: no result, no points
    empty = dr.export_file(bundle, {"product": "policy", "call_model": "pcf-sm", "load": "10000"}, "")
    assert empty["points"] is None and empty["inputs"]["objects_text"] == ""


def test_vendor_runs_rows_whether_or_not_you_paste(bundle):
    # The vendor's rows of "Where you stand" do not depend on what you paste: the page with nothing pasted shows the
    # same rows, without yours. Policy 3.2.8 (Tables 3-150/3-151, 43,000 TPS on its site): 2,431 cores requested /
    # 43 = 56.535 per 1K; Table 3-151 row 4 prints no memory request for ndbmysqld, so memory requested is a lower
    # bound; the run has Istio sidecars (ASM on), Policy 3.5.1 ("no ASM" in its title) has none
    def rows(html):
        body = re.search(r'id="deployment-totals">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
        return ["<tr" + x for x in body.split("<tr")[1:]]
    pasted = rows(dr.result_html(dr.compute_web(bundle, SMALL)))
    bare = rows(dr.result_html(dr.compute_web(bundle, dict(SMALL, objects="", top=""))))
    assert pasted[0].startswith('<tr class="atlas-yours">') and pasted[1:] == bare
    r328 = next(x for x in bare if "/policy-3-2-8/" in x)
    assert r328.startswith('<tr><th scope="row"><a href="../../products/policy/policy-3-2-8/">Policy 3.2.8</a>: ')
    assert "(ASM on)</th><td>43,000</td><td>56.535</td>" in r328
    assert r328.endswith("<td>no memory request printed for ndbmysqld: memory requested is at least this</td></tr>")
    assert "(ASM off)</th><td>30,000</td>" in next(x for x in bare if "/policy-3-5-1/" in x)


def test_problems_of_the_small_fixture_each_where_it_is(bundle):
    # get-small.json: Deployment pcf/broken has replicas 'many' and a CPU request '12x'; top-small.txt: line 6 reads
    # '12x', line 7 has 4 columns, line 9 (pod lone-pod, no namespace column) belongs to no workload of kubectl get
    html = dr.result_html(dr.compute_web(bundle, SMALL))
    quantity = "is not a Kubernetes quantity (a number with an optional suffix: 250m, 1.5, 512Mi, 1Gi, 1G, 1e9)"
    assert ('<details class="admonition warning" open id="deployment-problems"><summary>4 problem(s) in what you '
            "pasted: the other rows are used</summary><ul>"
            "<li><code>Deployment/pcf/broken/spec.replicas</code>: &#x27;many&#x27; is not a whole number of 0 or more</li>"
            f"<li><code>Deployment/pcf/broken/app/resources.requests.cpu</code>: &#x27;12x&#x27; {quantity}</li>"
            f"<li><code>line 6</code>: CPU(cores): &#x27;12x&#x27; {quantity}</li>"
            "<li><code>line 7</code>: 4 columns, expected 5 (NAMESPACE POD NAME CPU(cores) MEMORY(bytes))</li>"
            "<li>1 kubectl top line(s) belong to no workload of kubectl get (e.g. line 9, pod lone-pod): read as workloads "
            "of their own</li></ul></details>") in html
    # the made-up deployment has nothing wrong: no problems block
    assert 'id="deployment-problems"' not in dr.result_html(dr.compute_web(bundle, MADE_UP_PARAMS))


def test_unmatched_workloads_offer_every_service_of_the_product(bundle):
    # pcf/broken left out by hand ("" in the mapping) stays listed, its choice "(leave out)"; ?/lone-pod is not mapped.
    # Each list offers "leave out of the comparison" and then every Policy service of the service pages' registry, in
    # its order
    html = dr.result_html(dr.compute_web(bundle, dict(SMALL, mapping=json.dumps({"pcf/broken": ""}))))
    assert ("<p>1 workload(s) matched no service of this product by name: map each by hand (your mapping is exported "
            "with your inputs, never put in the address).</p>") in html
    policy = [s for s in bundle["deployment_names"]["services"] if s["doc"] == "policy"]
    opts = "".join(f'<option value="{s["service"]}">{s.get("display_name") or s["service"]}</option>' for s in policy)
    lone = ('<li data-workload="?/lone-pod"><label>Pod <code>?/lone-pod</code> (1 pod(s), containers app) '
            '<select class="atlas-map" data-map-key="?/lone-pod"><option value="" selected>(not mapped)</option>'
            f'<option value="-">leave out of the comparison</option>{opts}</select></label></li>')
    assert lone in html.replace("&#x27;", "'")
    assert '<select class="atlas-map" data-map-key="pcf/broken"><option value="">(leave out)</option>' in html
    assert '<option value="alternate-route">Alternate Route Service</option>' in opts  # the registry's first Policy one


def test_csv_rows_of_a_vendor_run_an_hpa_and_each_workload(bundle):
    rows = list(csv.reader(io.StringIO(dr.result_csv(dr.compute_web(bundle, SMALL)))))
    assert rows[0] == dr.CSV_COLS
    ig = {r[3]: r for r in rows if r[0] == "service" and r[1] == "ingress-gateway"}
    # Policy 3.2.8, Table 3-150 row 9: 29 ingress-gateway pods of 5 + 2.5 cores and 6 + 2 GiB requested: 217.5 cores,
    # 232 GiB; Table 3-152: 23.737 cores used; per 1K at 43,000 TPS: 5.05814, 0.552023, 5.395349 (6 decimals)
    assert ig["policy-3-2-8"][4:9] == ["43000", "", "5.05814", "0.552023", "5.395349"]
    # Policy 3.2.3, Table 3-92 row 6 prints its replicas as a range (2-27): read at its max end, and said so
    assert ig["policy-3-2-3"][-1] == "replicas printed as a range, read at its max end" and ig["policy-3-2-8"][-1] == ""
    # the ingress-gateway HPA (tests/test_deployment_cli.py): 3 pods, target 80 %, reads 62, desired 3, ok
    hpa = next(r for r in rows if r[0] == "hpa" and r[2] == "pcf/ocpcf-occnp-ingress-gateway")
    assert dict(zip(dr.CSV_COLS, hpa)) == dict(dict.fromkeys(dr.CSV_COLS, ""), kind="hpa", service="ingress-gateway",
                                               workload="pcf/ocpcf-occnp-ingress-gateway", pods="3",
                                               hpa_target_percent="80", hpa_reads_percent="62", desired_replicas="3",
                                               severity="ok")
    work = {r[2]: r[-1] for r in rows if r[0] == "workload"}
    assert work == {"pcf/ocpcf-occnp-ingress-gateway": "matched by name", "cndbtier/ndbmtd": "matched by name",
                    "pcf/broken": "unmatched", "?/lone-pod": "unmatched"}


def test_headline_and_hpa_row_of_the_small_fixture(bundle):
    # tests/test_deployment_cli.py works the fixture out: 4 workloads read (ingress-gateway, ndbmtd, pcf/broken and
    # the kubectl top pod lone-pod), 2 unmatched (pcf/broken, ?/lone-pod), so 2 matched to 2 services; per 1K 1.875
    # cores requested, 0.415 used. The ingress-gateway HPA: (2.5 + 0.15) / 4.25 = 62.35 % of requests (2 decimals),
    # read 62; 62 / 80 = 0.775; ceil(0.775 x 3) = 3 replicas: ok
    html = dr.result_html(dr.compute_web(bundle, SMALL))
    assert ("10,000 TPS at your site: 4 workload(s) read, 2 matched to 2 service(s), 2 unmatched; 1.875 cores requested "
            "and 0.415 used per 1K TPS; 0 HPA(s) critical; ") in html
    assert _row(html, 'data-workload="pcf/ocpcf-occnp-ingress-gateway"') == (
        ' data-workload="pcf/ocpcf-occnp-ingress-gateway"><th scope="row">pcf/ocpcf-occnp-ingress-gateway</th>'
        "<td>ingress-gateway</td><td>3</td><td>2-5</td><td>80</td><td>62.35</td><td>62</td><td>0.775</td><td>3</td>"
        '<td><span class="atlas-sev atlas-sev-ok" data-severity="ok">ok</span></td><td></td>')


def test_workloads_without_an_hpa_or_without_top(bundle):
    # the made-up deployment without its HPA and without kubectl top: still a result (requests only), no HPA table,
    # nothing to compare use with
    obj = dict(MADE_UP, items=[x for x in MADE_UP["items"] if x["kind"] != "HorizontalPodAutoscaler"])
    out = dr.compute_web(bundle, dict(MADE_UP_PARAMS, objects=json.dumps(obj), top=""))
    assert out["res"] is not None
    html = dr.result_html(out)
    assert ('<h3>Over their HPA target</h3><p id="deployment-over-none">No workload pasted has an HPA with a CPU '
            "utilization target.</p>") in html
    assert "<p>No matched service has both your use and a vendor reading to compare.</p>" in html
    # 14 cores requested (5 + 1 + 8): 1.4 per 1K; with no kubectl top no use was read: unknown, not 0
    assert ("3 workload(s) read, 3 matched to 3 service(s), 0 unmatched; 1.4 cores requested and use not read (no "
            "kubectl top pasted) per 1K TPS; ") in html
    assert out["res"]["totals"]["yours"]["cpu_used"] is None and out["res"]["totals"]["yours"]["mem_used"] is None
    assert out["res"]["totals"]["yours"]["every"]["cpu_used"] is None


def test_problems_without_stray_top_lines(bundle):
    # one CPU request that is no quantity, every kubectl top line placed: the problems block lists that one problem
    obj = json.loads(json.dumps(MADE_UP))
    obj["items"][1]["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1x"
    html = dr.result_html(dr.compute_web(bundle, dict(MADE_UP_PARAMS, objects=json.dumps(obj))))
    assert ('<summary>1 problem(s) in what you pasted: the other rows are used</summary><ul><li><code>Deployment/p/'
            "usage-monitoring/app/resources.requests.cpu</code>: &#x27;1x&#x27; is not a Kubernetes quantity") in html
    assert "belong to no workload" not in html


def test_under_use_table_header_and_vendor_memory_cells(bundle):
    html = dr.result_html(dr.compute_web(bundle, MADE_UP_PARAMS))
    assert ('<table class="atlas-data" id="deployment-under"><caption>Use against request, per pod: yours beside the '
            "vendor&#x27;s ratio</caption><thead><tr><th>Service</th><th>Resource</th><th>Your use / request</th>"
            "<th>Vendor use / request</th><th>Your request per pod</th><th>Request at the vendor&#x27;s ratio</th>"
            "<th>Severity (KRR)</th><th>Flag</th></tr></thead><tbody><tr ").replace("&#x27;", "'") in html.replace("&#x27;", "'")
    # memory used per 1K of a vendor run: a figure where its tables print memory used (Policy 3.2.8), a dash where
    # they print none (Policy 3.2.3: no memory reading for any of its services)
    cells = lambda sid: re.findall(r"<td>(.*?)</td>", next(x for x in html.split("<tr") if f"/{sid}/" in x))
    assert re.fullmatch(r"\d+\.\d{3}", cells("policy-3-2-8")[4]) and cells("policy-3-2-3")[4] == "–"


def test_chart_axes_are_quantities(bundle):
    spec = dr.result_chart(bundle, dr.compute_web(bundle, SMALL))
    home, services = spec["vconcat"]
    assert home["encoding"]["y"] == {"field": "efficiency", "type": "quantitative",
                                     "title": "CPU cores requested per 1K of load"}
    assert home["encoding"]["x"] == {"field": "load", "type": "quantitative", "scale": {"type": "log"},
                                     "title": "Load per site (log scale)"}
    enc = services["spec"]["encoding"]
    assert enc["x"] == {"field": "load", "type": "quantitative", "title": "Load per site"}
    assert enc["y"] == {"field": "per_1k", "type": "quantitative", "title": "Cores used per 1K"}


def test_csv_names_the_services_a_run_has_no_cpu_reading_for(bundle):
    # the page says how many services of a run have no CPU reading; the CSV's total row names them, comma-separated
    out = dr.compute_web(bundle, SMALL)
    rows = list(csv.DictReader(io.StringIO(dr.result_csv(out))))
    note = next(r for r in rows if r["kind"] == "total" and r["run"] == "policy-3-2-3")["note"]
    html = dr.result_html(out)
    count = int(re.search(r"/policy-3-2-3/.*?no CPU reading for (\d+) service", html).group(1))
    m = re.fullmatch(r"used: at least \(no reading for (.*)\)", note)
    assert m and len(m.group(1).split(", ")) == count and all(re.fullmatch(r"[a-z0-9-]+", x) for x in m.group(1).split(", "))
    assert next(r for r in rows if r["kind"] == "total" and r["run"] == "policy-3-2-10")["note"] == ""


def test_report_title_and_subtitle(bundle):
    from calculators import catalogue
    rep = catalogue.report(bundle, {"calc": "deployment", **SMALL})["report"]
    assert (rep["title"], rep["subtitle"], rep["filename"]) == (
        "Your deployment beside the vendor's runs", "Policy, PCF SM, 10000 TPS at your site", "your-deployment.xlsx")
