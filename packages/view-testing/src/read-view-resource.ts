/** One content of a view's `ui://` resource, as the client received it. */
export interface ViewResource {
  mimeType?: string;
  text?: string;
  _meta?: unknown;
}

/** Reads a view's resource through a test client's official SDK and returns its first content. */
export async function readViewResource(client: { sdk: unknown }, uri: string): Promise<ViewResource | undefined> {
  const sdk = client.sdk as { readResource(params: { uri: string }): Promise<{ contents: ViewResource[] }> };
  return (await sdk.readResource({ uri })).contents[0];
}
