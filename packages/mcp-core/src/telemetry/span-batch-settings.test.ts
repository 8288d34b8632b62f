import { describe, expect, it } from 'vitest';
import { spanBatchSettings } from './span-batch-settings.ts';

describe('the batch span processor’s settings', () => {
  it('batches up to 2,048 spans a second by default, with room for four batches', () => {
    expect(spanBatchSettings({})).toEqual({
      scheduledDelayMillis: 1000,
      exportTimeoutMillis: 30_000,
      maxQueueSize: 8192,
      maxExportBatchSize: 2048,
    });
  });

  it('takes the standard OTEL_BSP_* variables', () => {
    expect(
      spanBatchSettings({
        OTEL_BSP_SCHEDULE_DELAY: '20',
        OTEL_BSP_EXPORT_TIMEOUT: '5000',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '10',
      }),
    ).toEqual({ scheduledDelayMillis: 20, exportTimeoutMillis: 5000, maxQueueSize: 100, maxExportBatchSize: 10 });
  });

  it.each([
    [
      'a batch larger than the queue is cut to the queue',
      { OTEL_BSP_MAX_QUEUE_SIZE: '100' },
      { maxExportBatchSize: 100 },
    ],
    ['an empty value keeps the default', { OTEL_BSP_SCHEDULE_DELAY: ' ' }, { scheduledDelayMillis: 1000 }],
    [
      'a value that is not a positive number keeps the default',
      { OTEL_BSP_MAX_QUEUE_SIZE: '-5' },
      { maxQueueSize: 8192 },
    ],
    ['so does text', { OTEL_BSP_EXPORT_TIMEOUT: 'soon' }, { exportTimeoutMillis: 30_000 }],
  ])('%s', (_, env, expected) => {
    expect(spanBatchSettings(env)).toMatchObject(expected);
  });
});
