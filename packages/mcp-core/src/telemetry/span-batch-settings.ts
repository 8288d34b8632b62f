type Environment = Readonly<Record<string, string | undefined>>;

/** A positive number from the environment, or the default when it is unset or not one. */
function positive(env: Environment, name: string, fallback: number): number {
  const value = Number(env[name]);
  return env[name]?.trim() && Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * The batch span processor's settings: the standard `OTEL_BSP_*`
 * variables of the environment the server was started with, and where they
 * are unset, defaults of our own rather than the SDK's (512 spans every 5 s,
 * 2,048 waiting): a batch of up to 2,048 spans every second, or as soon as
 * that many are waiting, and up to 8,192 waiting. A batch costs one HTTP request
 * whatever its size, so a server answering thousands of calls a second
 * sends a few requests a second instead of one per 512 spans; the queue
 * holds four batches, so a burst while one is being sent is not dropped.
 */
export function spanBatchSettings(env: Environment): {
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
} {
  const maxQueueSize = positive(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 8192);
  return {
    scheduledDelayMillis: positive(env, 'OTEL_BSP_SCHEDULE_DELAY', 1000),
    exportTimeoutMillis: positive(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000),
    maxQueueSize,
    maxExportBatchSize: Math.min(maxQueueSize, positive(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 2048)),
  };
}
