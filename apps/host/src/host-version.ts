import { packageVersion } from '@toolshed/mcp-core';

/**
 * The host's version, from its package.json. This module sits at the top of
 * src/ (and of dist/ once bundled), which is what `packageVersion` needs.
 */
export const hostVersion: string = packageVersion(import.meta.url);
