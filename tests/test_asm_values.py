"""ASM overhead calculator (calculators/asm.py): what it offers and computes, from named rows of the Policy and BSF
guides, called directly (not through the page or a session fixture)."""
from __future__ import annotations

from calculators import asm


def test_scenarios_not_offered_say_why(bundle):
    """Policy 3.2.1 is titled '... and ASM enabled.' (Table 3-62 'ASM | Enable') yet its resource tables print no
    istio-proxy row; Policy 3.1.5 is 'Non-ASM' (Table 3-45 'ASM | Disable') yet Table 3-49 prints UDR istio-proxy
    containers. Neither can stand on either side of a comparison, and the page says why in the guide's words."""
    why = {x["id"]: x["reason"] for x in asm.not_offered(bundle)}
    assert why == {
        "policy-3-1-5": "policy-3-1-5 is ASM-off in the guide (asm 'disabled'), but its resource tables print istio-proxy "
                        "sidecars (Table 3-49), so it is not a clean ASM-off run; choose another ASM-off scenario.",
        "policy-3-2-1": "policy-3-2-1 runs ASM (asm 'enabled' in the guide), but its resource tables print no sidecar, so "
                        "its sidecar cost is unknown; choose an ASM-off scenario.",
    }
