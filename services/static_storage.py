"""The static files storage of the image (``SPADES_STATIC_MANIFEST=1``, settings.STORAGES).

whitenoise's manifest storage: ``collectstatic`` writes each file under a name with its
content's hash (``play.3f2a1c9d0b7e.js``) plus a gzip copy, and ``{% static %}`` names
the hashed file, which whitenoise serves as immutable (a ten-year max-age).

The browser client's ES modules import each other by relative path
(``import { api } from "./api.js";``). Left alone, a hashed ``page.<hash>.js`` would load
the unhashed ``api.js``: served with a short max-age, and possibly newer or older than
the page that imports it. Django rewrites those imports to the hashed names when
``support_js_module_import_aggregation`` is on. Its patterns are not anchored, so the
word "export" or "import" in a comment starts a match that runs on to the next real
import (``replay/stepper.js`` says "the export format," above its imports), which then
gets hashed twice and fails. Ours are the same patterns anchored at the start of a line,
where every import and re-export of our modules begins
(tests/integration/web/test_static_files.py checks that every module's imports resolve
to hashed files).
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

_FROM = r"""\s*from\s*["'](?P<url>[./].*?)["']\s*;)"""


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    _js_module_import_aggregation_patterns = (
        "*.js",
        (
            (
                r"(?m)^(?P<matched>import(?s:(?P<import>[\s\{].*?|\*\s*as\s*\w+))" + _FROM,
                """import%(import)s from "%(url)s";""",
            ),
            (
                r"(?m)^(?P<matched>export(?s:(?P<exports>[\s\{].*?))" + _FROM,
                """export%(exports)s from "%(url)s";""",
            ),
            (
                r"""(?m)^(?P<matched>import\s*["'](?P<url>[./].*?)["']\s*;)""",
                """import"%(url)s";""",
            ),
        ),
    )
