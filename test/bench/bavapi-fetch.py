"""The official Python client (bavapi) fetching brandscape data from an emulator, as a whole
process, for wire.bench.mjs: argv = base URL, token, comma-separated study ids, metric group keys,
output file (NDJSON). Its own defaults, except the base URL (its configuration names only the real
service) and the page size (1,000, the largest, so both clients ask for the same pages)."""
import asyncio
import sys

from bavapi.client import Client
from bavapi.http import HTTPClient


async def main(url: str, token: str, studies: list[int], groups: str, out: str) -> None:
    http = HTTPClient(
        base_url=f"{url}/api/v2/",
        per_page=1000,
        timeout=60,
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        verbose=False,
    )
    async with Client(client=http, verbose=False) as bav:
        frame = await bav.brandscape_data(studies=studies, metric_group_keys=groups, include="no_default")
    frame.to_json(out, orient="records", lines=True)


if __name__ == "__main__":
    base, key, ids, groups, path = sys.argv[1:6]
    asyncio.run(main(base, key, [int(i) for i in ids.split(",")], groups, path))
