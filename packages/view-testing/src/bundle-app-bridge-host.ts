import { rolldown } from 'rolldown';

/** The reference host as one browser script (an IIFE), bundled in memory. */
export async function bundleAppBridgeHost(): Promise<string> {
  const bundle = await rolldown({
    input: new URL('./app-bridge-host.ts', import.meta.url).pathname,
    platform: 'browser',
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'iife' });
    return output[0].code;
  } finally {
    await bundle.close();
  }
}
