"""The HTML page of a report: one file that opens with no network and no other file (its images are
inline, as base64 data URIs)."""
from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Sequence

from interpreter.reports.document import Report, html_body

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0; }}
th, td {{ padding: 0.2rem 0.7rem; border-bottom: 1px solid #ddd; text-align: right; vertical-align: top; }}
th.text, td.text, td:last-child {{ text-align: left; }}
td {{ white-space: pre-wrap; }}
.note {{ color: #666; font-size: 0.9rem; margin-top: 0; }}
.overview p {{ margin: 0.4rem 0; }}
.glossary {{ color: #444; font-size: 0.9rem; margin: 1rem 0; }}
.glossary dt {{ font-weight: bold; }}
.glossary dd {{ margin: 0 0 0.3rem 1.5rem; }}
img {{ max-width: 100%; display: block; margin: 1rem 0; }}
</style></head><body>
{body}
</body></html>
"""


def write_page(path: Path, report: Report, images: Sequence[Path] = ()) -> Path:
    """Write the report, with the PNG `images` inline, to `path`; returns `path`."""
    shown = "\n".join(
        f"<img alt='{image.stem.replace('_', ' ')}' src='data:image/png;base64,"
        f"{base64.b64encode(image.read_bytes()).decode('ascii')}'>" for image in images)
    path.write_text(PAGE.format(title=html.escape(report.title), body=html_body(report, shown)), encoding="utf-8")
    return path
