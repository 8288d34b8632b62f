import { LocalError } from '@toolshed/mcp-core';

/** `TOOLSHED_SQL_SSH_PASSPHRASE_<NAME>`: the passphrase of the SSH key of database NAME's bastion. */
export function sshPassphraseVariable(name: string): string {
  return `TOOLSHED_SQL_SSH_PASSPHRASE_${name.toUpperCase().replaceAll('-', '_')}`;
}

/** An SSH server that forwards connections to a database: `user@host[:port]`. */
export interface SshBastion {
  user: string;
  host: string;
  port: number;
}

/**
 * `user@host`, `user@host:port` or `user@[v6 address]:port`, as given to
 * `--db-ssh NAME=…`. A password in it (`user:secret@host`) is refused without
 * being repeated: it would sit in the process list and shell history; the
 * bastion takes a key instead.
 */
export function parseSshBastion(name: string, spec: string): SshBastion {
  const at = spec.lastIndexOf('@');
  const user = spec.slice(0, Math.max(at, 0));
  if (user.includes(':')) {
    throw new LocalError(
      'config_invalid',
      `--db-ssh ${name}: a password cannot be given on the command line; give the bastion a key with --db-ssh-key ${name}=FILE (its passphrase, if any, in ${sshPassphraseVariable(name)})`,
    );
  }
  const address = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(spec.slice(at + 1));
  const host = address?.[1] ?? address?.[2];
  const port = Number(address?.[3] ?? 22);
  if (at <= 0 || host === undefined || !/^[^\s/@]+$/.test(user) || port < 1 || port > 65_535) {
    throw new LocalError(
      'config_invalid',
      `--db-ssh ${name}=${spec}: write the bastion as USER@HOST or USER@HOST:PORT`,
    );
  }
  return { user, host, port };
}

/** `user@host:port`, for messages. */
export function describeSshBastion(bastion: SshBastion): string {
  const host = bastion.host.includes(':') ? `[${bastion.host}]` : bastion.host;
  return `${bastion.user}@${host}:${bastion.port}`;
}
