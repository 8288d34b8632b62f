#!/bin/sh
# Runs a command with TOOLSHED_PYTHON_MCP set to a Python that has the official Python SDK (`mcp`), for the test
# that reads a large result through its client. The SDK goes into a virtual environment in .toolchain/ from
# whatever package index pip is set to use; where none can be reached, the command runs without it and that one
# test is skipped, saying why.
set -eu

root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
venv="$root/.toolchain/python-mcp"
# The client API the test uses (mcp.Client, streamable_http_client) is the 2.x one.
requirement='mcp>=2.3,<3'

say() { printf 'toolshed: %s\n' "$*" >&2; }

has_client() { "$1" -c 'import mcp.client.streamable_http' >/dev/null 2>&1; }

if [ -z "${TOOLSHED_PYTHON_MCP:-}" ]; then
  if [ -x "$venv/bin/python" ] && has_client "$venv/bin/python"; then
    TOOLSHED_PYTHON_MCP="$venv/bin/python"
  elif command -v python3 >/dev/null 2>&1; then
    rm -rf "$venv"
    if python3 -m venv "$venv" >/dev/null 2>&1 &&
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --retries 0 --timeout 20 "$requirement" >/dev/null 2>&1 &&
      has_client "$venv/bin/python"; then
      say "installed the official Python SDK ($requirement) into .toolchain/python-mcp"
      TOOLSHED_PYTHON_MCP="$venv/bin/python"
    else
      rm -rf "$venv"
      say "the official Python SDK ($requirement) could not be installed with pip; its client test is skipped"
    fi
  fi
  if [ -n "${TOOLSHED_PYTHON_MCP:-}" ]; then export TOOLSHED_PYTHON_MCP; fi
fi
exec "$@"
