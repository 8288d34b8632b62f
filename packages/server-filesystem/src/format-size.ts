const units = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Sizes as the reference server prints them: `0 B`, `512 B`, `1.50 KB`. */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0 B';
  const exponent = Math.floor(Math.log(bytes) / Math.log(1024));
  if (exponent <= 0) return `${bytes} B`;
  const unit = Math.min(exponent, units.length - 1);
  return `${(bytes / 1024 ** unit).toFixed(2)} ${units[unit]}`;
}
