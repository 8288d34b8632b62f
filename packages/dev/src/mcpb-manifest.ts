/**
 * An MCP bundle's manifest.json (the format Claude Desktop installs with one
 * click) for a server package: its identity from package.json, and its
 * settings from the bin's options. Caps (`limits.*`) and upstream URLs keep
 * their defaults in a bundle; they are for operators, who run the bin.
 */
import { nodeFloor, type PackageManifest, repositoryWebUrl } from './package-manifest.ts';
import type { OptionField, ServerCliShape, ServerPackage } from './server-package.ts';

type UserConfigEntry = {
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required?: boolean;
  default?: string | number | boolean;
  multiple?: boolean;
  sensitive?: boolean;
};

/** Where the installed package sits inside the bundle. */
export function bundledPackageDirectory(packageName: string): string {
  return `server/node_modules/${packageName}`;
}

function settingKey(field: OptionField): string {
  // A negated option is set by its flag's words: `no_ad_hoc`, not `ad_hoc` that means the opposite.
  if (field.negated && field.flag !== undefined) return field.flag.replaceAll('-', '_');
  return field.path.join('_').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function settingTitle(field: OptionField): string {
  const words = settingKey(field).replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function settingType(field: OptionField): UserConfigEntry['type'] {
  if (field.type === 'boolean' || field.type === 'number') return field.type;
  if (field.placeholder?.startsWith('DIR') === true) return 'directory';
  if (field.placeholder === 'FILE' || field.placeholder?.startsWith('PATH') === true) return 'file';
  return 'string';
}

/** The settings a bundle asks for: what the bin takes from its command line or environment, caps aside. */
function bundleSettings(fields: readonly OptionField[]): OptionField[] {
  return fields.filter(
    (field) =>
      field.env !== undefined &&
      field.type !== undefined &&
      field.path[0] !== 'limits' &&
      field.path[0] !== 'upstreams',
  );
}

/** Who a bundle names as its author: package.json's author, else the given name. */
function bundleAuthor(manifest: PackageManifest, fallback: string | undefined): { name: string; url?: string } {
  const url = manifest.homepage.replace(/\/tree\/.*$/, '').replace(/#.*$/, '');
  if (typeof manifest.author === 'string') {
    // npm's "Name <email> (url)" form.
    const name = manifest.author.replace(/\s*[<(].*$/, '').trim();
    return { name, url: /\(([^)]+)\)/.exec(manifest.author)?.[1] ?? url };
  }
  if (manifest.author !== undefined) return { name: manifest.author.name, url: manifest.author.url ?? url };
  if (fallback === undefined) throw new Error(`${manifest.name}: package.json names no author for the bundle`);
  return { name: fallback, url };
}

export interface McpbManifestOptions {
  /** Named as the author when package.json has none. */
  author?: string;
  /**
   * The bundle holds native addons: on macOS and Linux the server starts
   * through the launcher script (`bundleLauncherPath`) instead of the command
   * `node`, which Claude Desktop on macOS runs in a process that refuses
   * third-party native modules; Windows keeps `node`.
   */
  nativeAddons?: boolean;
}

/** Where the launcher script sits inside a bundle with native addons. */
export const bundleLauncherPath = 'server/start-server.sh';

/**
 * The manifest.json of a server's bundle.
 *
 * @example
 * mcpbManifest(server, readPackageManifest('.'), cli, { author: 'Example Ltd' });
 */
export function mcpbManifest(
  server: ServerPackage,
  manifest: PackageManifest,
  cli: ServerCliShape,
  options: McpbManifestOptions = {},
): Record<string, unknown> {
  const [binName, binPath] = Object.entries(manifest.bin)[0] as [string, string];
  const entryPoint = `${bundledPackageDirectory(manifest.name)}/${binPath.replace(/^\.\//, '')}`;
  const operand = cli.definition.operands?.option;
  const userConfig: Record<string, UserConfigEntry> = {};
  const env: Record<string, string> = {};
  const args = [`\${__dirname}/${entryPoint}`];
  for (const field of bundleSettings(cli.fields)) {
    const key = settingKey(field);
    const isOperand = field.path.join('.') === operand;
    const type = settingType(field);
    const choices = field.choices === undefined ? '' : ` (${field.choices.join(', ')})`;
    const listed = field.type === 'list' && !isOperand ? '; several separated by commas' : '';
    userConfig[key] = {
      type,
      title: settingTitle(field),
      description: `${field.description}${choices}${listed}`,
      ...(field.required ? { required: true } : {}),
      ...(isOperand ? { multiple: true } : {}),
      // A setting with no flag comes from the environment alone: a secret.
      ...(field.flag === undefined ? { sensitive: true } : {}),
      // An optional setting without a default gets an empty one, which hosts pass as "" (not set).
      // `--no-ad-hoc` and the like are off until the user turns them on, whatever the option's own default.
      ...(field.negated
        ? { default: false }
        : ['string', 'number', 'boolean'].includes(typeof field.defaultValue)
          ? { default: field.defaultValue as string | number | boolean }
          : field.required
            ? {}
            : { default: '' }),
    };
    // Several directories go on the command line, one argument each; everything else through the environment.
    if (isOperand) args.push(`\${user_config.${key}}`);
    else env[field.env as string] = `\${user_config.${key}}`;
  }
  const floor = nodeFloor(manifest);
  return {
    manifest_version: '0.3',
    name: binName,
    display_name: server.displayName,
    version: manifest.version,
    description: server.description,
    long_description: manifest.description,
    author: bundleAuthor(manifest, options.author),
    repository: { type: 'git', url: repositoryWebUrl(manifest) },
    homepage: manifest.homepage,
    documentation: manifest.homepage,
    support: manifest.bugs.url,
    license: manifest.license,
    keywords: manifest.keywords ?? [],
    server: {
      type: 'node',
      entry_point: entryPoint,
      mcp_config:
        options.nativeAddons === true
          ? {
              command: 'sh',
              args: [`\${__dirname}/${bundleLauncherPath}`, ...args],
              env,
              platform_overrides: { win32: { command: 'node', args, env } },
            }
          : { command: 'node', args, env },
    },
    tools_generated: true,
    // Native addons (better-sqlite3, sharp) are installed for the platform that builds the bundle: one bundle a platform.
    compatibility: {
      platforms: [process.platform],
      ...(floor === undefined ? {} : { runtimes: { node: `>=${floor}` } }),
    },
    user_config: userConfig,
  };
}
