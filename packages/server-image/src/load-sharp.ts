import type sharpModule from 'sharp';

/** sharp's constructor function, as `import sharp from 'sharp'` gives it. */
export type SharpFunction = typeof sharpModule;

let loading: Promise<SharpFunction> | undefined;

/**
 * sharp, loaded on the first image rather than at start: it brings libvips,
 * tens of megabytes that neither `initialize` nor `tools/list` needs, so the
 * server answers its client sooner and holds less until an image arrives.
 */
export function loadSharp(): Promise<SharpFunction> {
  loading ??= import('sharp').then((loaded) => loaded.default);
  return loading;
}
