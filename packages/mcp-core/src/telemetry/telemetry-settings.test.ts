import { describe, expect, it } from 'vitest';
import { LocalError } from '../errors/local-error.ts';
import { readTelemetrySettings } from './telemetry-settings.ts';

function refusal(env: Record<string, string>, metrics?: string): string {
  try {
    readTelemetrySettings(env, metrics);
  } catch (error) {
    if (LocalError.isInstance(error) && error.code === 'config_invalid') return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('the OTEL_* variables and --metrics', () => {
  it('turn nothing on when none is set', () => {
    expect(readTelemetrySettings({}, undefined)).toBeUndefined();
  });

  it('turn on traces and metrics with an OTLP endpoint, each off again by its exporter variable', () => {
    expect(readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, undefined)).toEqual({
      traces: true,
      otlpMetrics: true,
      prometheus: undefined,
    });
    expect(
      readTelemetrySettings(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_METRICS_EXPORTER: 'none' },
        undefined,
      ),
    ).toMatchObject({ traces: true, otlpMetrics: false });
  });

  it('serve /metrics on loopback unless a host is given', () => {
    expect(readTelemetrySettings({}, '9464')?.prometheus).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(readTelemetrySettings({}, '[::1]:9464')?.prometheus).toEqual({ host: '::1', port: 9464 });
    expect(readTelemetrySettings({ OTEL_METRICS_EXPORTER: 'prometheus' }, undefined)?.prometheus).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
  });

  it('OTEL_SDK_DISABLED=true wins over everything', () => {
    expect(
      readTelemetrySettings(
        { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
        '9464',
      ),
    ).toBeUndefined();
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, undefined, /OTEL_TRACES_EXPORTER: "zipkin" is not supported/],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, undefined, /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/],
    [{}, 'localhost:99999', /--metrics must be PORT or HOST:PORT/],
  ] as const)('refuse a value they cannot honour, naming it: %o %s', (env, metrics, message) => {
    expect(refusal(env, metrics)).toMatch(message);
  });
});
