/**
 * What every child needs to run at all: where home and temporary files are,
 * how to find programs, the terminal and the language. Secrets are not in it.
 * The official SDK passes the first six; the rest are what programs on each
 * platform fail without (temporary directories, locale, and on Windows the
 * system directories that DLL loading and `npx` depend on).
 */
const sharedNames = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR', 'TMP', 'TEMP', 'LANG'];
const windowsNames = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'USERPROFILE',
  'WINDIR',
];

export interface ChildEnvironmentOptions {
  /** The entry's own `env`, which wins over anything inherited. */
  env: Readonly<Record<string, string>>;
  /** More names the entry lets its child inherit from the host. */
  inheritEnv?: readonly string[] | undefined;
  /** The host's environment. Default `process.env`. */
  parent?: NodeJS.ProcessEnv | undefined;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform | undefined;
}

/**
 * The environment a child server starts with: the minimal set above that is
 * set in the host, every `LC_*`, the names the entry lists in `inheritEnv`,
 * then the entry's `env`. Nothing else of the host's reaches a child, so an
 * API key meant for one server is not handed to every package in the config.
 * Windows names are matched without regard to case, as Windows does.
 *
 * @example
 * childEnvironment({ env: { API_KEY: 'k' }, inheritEnv: ['HTTPS_PROXY'] });
 */
export function childEnvironment(options: ChildEnvironmentOptions): Record<string, string> {
  const parent = options.parent ?? process.env;
  const windows = (options.platform ?? process.platform) === 'win32';
  const wanted = new Set(
    [...sharedNames, ...(windows ? windowsNames : []), ...(options.inheritEnv ?? [])].map((name) =>
      windows ? name.toUpperCase() : name,
    ),
  );
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    const key = windows ? name.toUpperCase() : name;
    if (wanted.has(key) || key.startsWith('LC_')) environment[name] = value;
  }
  return { ...environment, ...options.env };
}
