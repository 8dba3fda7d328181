"""The balance report of a run as pages: balance.md, balance.html and its tables.

It sits above both :mod:`cgsim.reporting.balance` (the tables and flags) and
:mod:`cgsim.reporting.verdict` (which reads them and opens the page), so neither of those
needs the other's module.
"""

from __future__ import annotations

from pathlib import Path

from cgsim.play.results import CORE_SCHEMAS, MANIFEST, read_manifest, scan, table_names
from cgsim.reporting.balance import NO_SCHEMA_NOTE, balance_tables, shown_sections
from cgsim.reporting.metrics import schema_of
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
from cgsim.reporting.verdict import verdict_lines


def write_balance_report(results_dir: Path, out_dir: Path | None = None) -> dict[str, Path]:
    """balance.md, a self-contained balance.html and ``tables/balance_*.csv`` of a run
    (into ``out_dir``, default the results directory)."""
    manifest = read_manifest(results_dir)
    schema = schema_of(manifest, str(Path(results_dir) / MANIFEST))
    names = [*CORE_SCHEMAS, *(n for n in table_names(results_dir) if n not in CORE_SCHEMAS)]
    tables = balance_tables({name: scan(results_dir, name) for name in names}, schema)
    folder = Path(results_dir) if out_dir is None else out_dir
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name, table in tables.items():
        paths[name] = folder / "tables" / f"{name}.csv"
        table.write_csv(paths[name])
    sections = [
        PageSection(
            section.title,
            section.text,
            [PageTable(tables[name], f"tables/{name}.csv") for name in shown],
        )
        for section, shown in shown_sections(tables, schema)
    ]
    page = Page(
        f"Balance: {manifest.get('name', Path(results_dir).name)}",
        text=verdict_lines(tables),
        notes=[NO_SCHEMA_NOTE] if "schema" not in manifest else [],
        sections=sections,
    )
    paths["markdown"], paths["html"] = write_page(page, folder, "balance")
    return paths
