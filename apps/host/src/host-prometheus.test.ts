import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpDurationBuckets } from '@toolshed/mcp-core';
import {
  connectTestClient,
  freeLoopbackPort,
  type ServiceProcess,
  type SpawnedHttpServer,
  serviceGate,
  spawnHttpServer,
  startServiceProcess,
} from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
const prometheus = { name: 'Prometheus', binary: '/usr/bin/prometheus', debianPackage: 'prometheus' };
const replicaCount = 3;
const callsPerReplica = 100;

interface PrometheusVector {
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

describe.runIf(serviceGate(prometheus, it))('Prometheus scraping three host replicas', () => {
  let directory: string;
  const replicas: SpawnedHttpServer[] = [];
  let server: ServiceProcess | undefined;

  async function query(expression: string): Promise<PrometheusVector['data']['result']> {
    const url = `http://127.0.0.1:${server?.port}/api/v1/query?query=${encodeURIComponent(expression)}`;
    return ((await (await fetch(url)).json()) as PrometheusVector).data.result;
  }

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-prometheus-'));
    const workspace = join(directory, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'note.txt'), 'hello');
    const config = join(directory, 'toolshed.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { files: { package: '@toolshed/server-filesystem', options: { directories: [workspace] } } },
      }),
    );
    // Only --metrics: no OTLP endpoint, no other telemetry variable from the test's own environment.
    const quiet = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    const metricsPorts: number[] = [];
    for (let index = 0; index < replicaCount; index++) {
      const metricsPort = await freeLoopbackPort();
      metricsPorts.push(metricsPort);
      replicas.push(
        await spawnHttpServer(
          [bin, 'serve', '--config', config, '--http', '127.0.0.1:0', '--metrics', `127.0.0.1:${metricsPort}`],
          { env: { ...quiet, XDG_STATE_HOME: join(directory, `state-${index}`) } },
        ),
      );
    }
    for (const replica of replicas) {
      const client = await connectTestClient({ url: replica.url }, { client: 'v2-modern', transport: 'http' });
      try {
        for (let call = 0; call < callsPerReplica; call++) {
          const result = await client.callTool('files_list_directory', { path: workspace });
          expect(result.isError).not.toBe(true);
        }
      } finally {
        await client.close();
      }
    }
    // Prometheus runs as an unprivileged user when the tests run as root: it must read the config and write its data.
    chmodSync(directory, 0o755);
    const storage = join(directory, 'prometheus-data');
    mkdirSync(storage, { mode: 0o777 });
    chmodSync(storage, 0o777);
    const prometheusConfig = join(directory, 'prometheus.yml');
    writeFileSync(
      prometheusConfig,
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: toolshed',
        '    static_configs:',
        `      - targets: [${metricsPorts.map((port) => `"127.0.0.1:${port}"`).join(', ')}]`,
        '',
      ].join('\n'),
      { mode: 0o644 },
    );
    server = await startServiceProcess({
      command: prometheus.binary,
      args: (port) => [
        `--config.file=${prometheusConfig}`,
        `--storage.tsdb.path=${storage}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
    rmSync(directory, { recursive: true, force: true });
  });

  it('sums 300 tools/call operations across the replicas, in the conventions’ buckets', async () => {
    const total = 'sum(mcp_server_operation_duration_count{mcp_method_name="tools/call"})';
    const up = 'count(up{job="toolshed"} == 1)';
    // Polled until every replica was scraped once its calls were done: a hang guard, not a speed bar.
    const scraped = async () => {
      const [replicasUp] = await query(up);
      const [sum] = await query(total);
      return `${replicasUp?.value[1]} replicas up, sum ${sum?.value[1]}`;
    };
    await expect
      .poll(scraped, { timeout: 90_000, interval: 250 })
      .toBe(`${replicaCount} replicas up, sum ${replicaCount * callsPerReplica}`);
    const buckets = await query(
      'count by (le) (mcp_server_operation_duration_bucket{mcp_method_name="tools/call",gen_ai_tool_name="files_list_directory"})',
    );
    const bounds = buckets.map((bucket) => bucket.metric.le).filter((le) => le !== '+Inf');
    expect(bounds.map(Number).sort((a, b) => a - b)).toEqual(mcpDurationBuckets);
    expect(buckets.map((bucket) => bucket.metric.le)).toContain('+Inf');
    for (const bucket of buckets) expect(bucket.value[1]).toBe(String(replicaCount));
  }, 120_000);
});
