/** Per-server host settings, allowed on every kind of entry. */
export type HostSettings = {
  /** Which upstream tools are shown: patterns with `*`; deny wins. */
  tools?: { allow?: string[] | undefined; deny?: string[] | undefined } | undefined;
  /** What exposed names start with; default the server's name. */
  prefix?: string | undefined;
  /** A call still running after this long is cancelled. */
  toolTimeoutMs?: number | undefined;
  rateLimit?: { perMinute?: number | undefined; perHour?: number | undefined } | undefined;
  /** Tools (patterns with `*`) that need a human yes although not destructive, or that do not although they are. */
  approval?:
    | {
        require?: string[] | undefined;
        skip?: string[] | undefined;
        /** Where the yes comes from for this server's tools; default the host's `approval.mode`. */
        mode?: ApprovalMode | undefined;
        /** Per-tool modes by pattern; the first match wins over `mode`. */
        modes?: Record<string, ApprovalMode> | undefined;
      }
    | undefined;
  disabled?: boolean | undefined;
};

/** The `"toolshed"` block of a config file: the host's own settings. */
export type HostOptions = {
  /** Between the prefix and the tool's name. Default `_`. */
  separator: string;
  audit: {
    enabled: boolean;
    /** A JSONL file each call's line is also written to, for people who tail it; none by default (the store is the record). */
    path?: string | undefined;
    /** Size at which the log rotates. Default 10 MiB. */
    maxBytes: number;
    /** Rotated files kept. Default 5. */
    files: number;
  };
  /** Restarts after crashes before a child server is given up on. Default 5. */
  maxRestarts: number;
  /** How long a call may run, for servers that set no `toolTimeoutMs` of their own. Default 10 minutes. */
  toolTimeoutMs?: number | undefined;
  /**
   * What `tools/list` shows: every upstream tool (`full`, the default), or
   * three tools that find, describe and run them (`search`), so that a model
   * pays for hundreds of tools the price of three.
   */
  toolList: ToolList;
  approval: {
    /** Where a human's yes comes from, for servers that set no mode of their own. Default `elicit-or-console`. */
    mode: ApprovalMode;
    /** How long a call waits for a decision in the console. Default 5 minutes. */
    consoleTimeLimitMs: number;
  };
};

/**
 * Where a human's yes comes from: the calling client (`elicit`), the web
 * console (`console`), or the client when it can ask and the console when
 * it cannot (`elicit-or-console`).
 */
export type ApprovalMode = 'elicit' | 'console' | 'elicit-or-console';

export type ToolList = 'full' | 'search';

export const toolshedPackages: readonly ToolshedPackage[] = [
  '@toolshed/server-sql',
  '@toolshed/server-filesystem',
  '@toolshed/server-weather',
  '@toolshed/server-email',
  '@toolshed/server-image',
];

export type ToolshedPackage =
  | '@toolshed/server-sql'
  | '@toolshed/server-filesystem'
  | '@toolshed/server-weather'
  | '@toolshed/server-email'
  | '@toolshed/server-image';

/** One upstream, whatever shape it was written in. */
export type ServerEntry = HostSettings & { name: string } & (
    | {
        kind: 'stdio';
        command: string;
        args: string[];
        env: Record<string, string>;
        /** Variables of the host's environment the child may see besides the minimal set. */
        inheritEnv?: string[] | undefined;
        cwd: string | undefined;
      }
    | { kind: 'http'; url: string; headers: Record<string, string> }
    | { kind: 'package'; package: ToolshedPackage; options: Record<string, unknown> }
  );

export interface HostConfig {
  options: HostOptions;
  servers: ServerEntry[];
  /** Where it came from, for messages: a file path or "embedded defaults". */
  source: string;
}
