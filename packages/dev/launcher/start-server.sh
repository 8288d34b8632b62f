#!/bin/sh
# Starts a bundle's server in a Node of the machine's own. Claude Desktop on macOS runs a bundle whose command is
# "node" in a process whose library validation refuses native addons signed by anyone else
# (https://github.com/modelcontextprotocol/mcpb/issues/229); any other command is spawned as an ordinary process,
# where better-sqlite3 and sharp load. Apps started from the Finder get a short PATH, so the usual places follow.
for node in "$(command -v node 2>/dev/null)" /opt/homebrew/bin/node /usr/local/bin/node /usr/bin/node; do
  if [ -n "$node" ] && [ -x "$node" ]; then
    exec "$node" "$@"
  fi
done
echo "No Node.js found (looked on PATH, in /opt/homebrew/bin, /usr/local/bin and /usr/bin): install Node.js 22.14 or newer." >&2
exit 1
