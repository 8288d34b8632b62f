import { join } from 'node:path';

export interface NginxReplica {
  /** What the replica's 2025-era session ids start with (`--http-session-prefix`). */
  sessionPrefix: string;
  /** `127.0.0.1:PORT`, where the replica serves /mcp. */
  address: string;
}

export interface NginxLoadBalancerOptions {
  /** Where nginx keeps its pid file, logs and temporary files. */
  directory: string;
  port: number;
  replicas: readonly NginxReplica[];
}

/** The access log's fields, one JSON object a line; headers nginx did not see are empty strings. */
export interface NginxAccessEntry {
  upstream: string;
  status: number;
  method: string;
  /** `Mcp-Method`, which 2026-era clients send on every request. */
  mcpMethod: string;
  /** `Mcp-Name`: the tool a 2026-era `tools/call` is for. */
  mcpName: string;
  /** The `Mcp-Session-Id` the client sent. */
  session: string;
  /** The `Mcp-Session-Id` the replica answered with (on `initialize`). */
  newSession: string;
}

/**
 * An nginx configuration for replicas of one MCP server: requests without
 * `Mcp-Session-Id` (every 2026-era request, and 2025-era `initialize`) go
 * round-robin; a 2025-era session's requests go to the replica whose prefix
 * its id carries. It runs as whoever starts it: its own pid file, logs and
 * temporary paths under `directory`, in the foreground.
 */
export function nginxLoadBalancerConfig(options: NginxLoadBalancerOptions): string {
  const { directory, port, replicas } = options;
  const path = (name: string) => join(directory, name);
  const upstreamName = (replica: NginxReplica) => `replica_${replica.sessionPrefix.replace(/[^A-Za-z0-9_]/g, '_')}`;
  // A prefix holds letters, digits, '-', '_' and '.'; only '.' means something in a regular expression.
  const quote = (prefix: string) => prefix.replaceAll('.', '\\.');
  return `daemon off;
master_process on;
worker_processes 1;
pid ${path('nginx.pid')};
error_log ${path('error.log')} warn;
# A graceful stop waits for open streams (a 2025 session's GET, subscriptions/listen) at most this long.
worker_shutdown_timeout 5s;

events {
    worker_connections 512;
}

http {
    client_body_temp_path ${path('client-body')};
    proxy_temp_path ${path('proxy')};
    fastcgi_temp_path ${path('fastcgi')};
    uwsgi_temp_path ${path('uwsgi')};
    scgi_temp_path ${path('scgi')};

    log_format balancer escape=json '{"upstream":"$upstream_addr","status":$status,"method":"$request_method",'
        '"mcpMethod":"$http_mcp_method","mcpName":"$http_mcp_name",'
        '"session":"$http_mcp_session_id","newSession":"$upstream_http_mcp_session_id"}';
    access_log ${path('access.log')} balancer;

    # Idle connections to a replica are dropped before its own 5 s keep-alive timeout
    # would close them under a request nginx is sending, which nginx cannot retry for a POST.
    upstream replicas {
${replicas.map((replica) => `        server ${replica.address};`).join('\n')}
        keepalive 32;
        keepalive_timeout 4s;
    }
${replicas
  .map(
    (replica) => `
    upstream ${upstreamName(replica)} {
        server ${replica.address};
        keepalive 8;
        keepalive_timeout 4s;
    }`,
  )
  .join('')}

    map $http_mcp_session_id $mcp_upstream {
${replicas.map((replica) => `        ~^${quote(replica.sessionPrefix)} ${upstreamName(replica)};`).join('\n')}
        default replicas;
    }

    server {
        listen 127.0.0.1:${port};

        location /mcp {
            proxy_pass http://$mcp_upstream;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }
    }
}
`;
}

/** The access log's entries, in the order nginx finished the requests. */
export function parseNginxAccessLog(text: string): NginxAccessEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as NginxAccessEntry);
}
