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

  it('take a sampler the SDK knows, with its ratio', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    };
    expect(readTelemetrySettings(env, undefined)).toMatchObject({ traces: true });
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
    [
      { OTEL_TRACES_SAMPLER: 'sometimes' },
      undefined,
      /OTEL_TRACES_SAMPLER: "sometimes" is not supported; use always_on/,
    ],
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '10%' },
      undefined,
      /OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1/,
    ],
    [
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
      undefined,
      /OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 .*; got "2"/,
    ],
  ] as const)('refuse a value they cannot honour, naming it: %o %s', (env, metrics, message) => {
    expect(refusal(env, metrics)).toMatch(message);
  });
});
