"""Calls each named tool with the official Python SDK client over Streamable HTTP, in both eras.

Prints one JSON line per call: {"era", "tool", "ok", "length" or "error"}. A progress callback on the
2025-era calls makes the server stream progress before the answer, as an interactive client would.
"""

import json
import sys

import anyio
from mcp import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


def report(era, tool, outcome):
    print(json.dumps({"era": era, "tool": tool, **outcome}), flush=True)


async def call(era, tool, invoke):
    try:
        with anyio.fail_after(60):
            result = await invoke()
        report(era, tool, {"ok": True, "length": len(result.content[0].text)})
    except Exception as error:
        report(era, tool, {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]})


async def ignore_progress(progress, total, message):
    pass


async def main(url, tools):
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            for tool in tools:
                await call("2025", tool, lambda: session.call_tool(tool, {}, progress_callback=ignore_progress))
    async with Client(url) as client:
        for tool in tools:
            await call("2026", tool, lambda: client.call_tool(tool, {}))


anyio.run(main, sys.argv[1], sys.argv[2:])
