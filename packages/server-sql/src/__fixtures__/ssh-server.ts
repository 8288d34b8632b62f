import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import {
  alivePids,
  processTree,
  type RealService,
  type ServiceProcess,
  startServiceProcess,
} from '@toolshed/mcp-core/testing';

/** Debian's OpenSSH server, as a bastion; ssh-keygen comes with it (openssh-client). */
export const sshService: RealService = {
  name: 'OpenSSH server',
  binary: '/usr/sbin/sshd',
  debianPackage: 'openssh-server',
};

/** A key pair made by ssh-keygen for the run. */
export interface SshKeyPair {
  privateKeyFile: string;
  /** `ssh-ed25519 AAAA… comment`, as in authorized_keys and known_hosts. */
  publicKey: string;
}

/** Makes an ed25519 key pair in `directory`, with a passphrase when given. */
export function createSshKeyPair(directory: string, name: string, passphrase = ''): SshKeyPair {
  const privateKeyFile = join(directory, name);
  execFileSync('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', privateKeyFile], {
    stdio: 'pipe',
  });
  return { privateKeyFile, publicKey: readFileSync(`${privateKeyFile}.pub`, 'utf8').trim() };
}

export interface SshServer {
  port: number;
  /** The user the tests log in as: the one they run as. */
  user: string;
  /** `user@127.0.0.1:port`, as `--db-ssh` takes it. */
  bastion: string;
  /** The server's own host key: `ssh-ed25519 AAAA…`. */
  hostKey: SshKeyPair;
  /** A key in its authorized_keys. */
  clientKey: SshKeyPair;
  /** Its authorized_keys file, read at each login. */
  authorizedKeysFile: string;
  /** A known_hosts file holding the host key as `[127.0.0.1]:port`. */
  knownHostsFile: string;
  /** The same, hashed by `ssh-keygen -H` as `HashKnownHosts yes` writes it. */
  hashedKnownHostsFile: string;
  /** What sshd logged so far (it logs each login). */
  log(): string;
  /** How many SSH connections it is serving now (a process each). */
  sessions(): number;
  /** A directory for the test's own files, removed with the server. */
  directory: string;
  /** Kills sshd and every session it forked, as a crash of the bastion would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, with the same keys. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts an OpenSSH server of its own on 127.0.0.1 and a free port, with a
 * configuration, host key and authorized_keys in a temporary directory:
 * public-key logins only, TCP forwarding on. sshd runs as the tests' user
 * (root in CI: it needs /run/sshd for privilege separation then).
 */
export async function startSshServer(): Promise<SshServer> {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-sshd-'));
  const hostKey = createSshKeyPair(directory, 'host_ed25519');
  const clientKey = createSshKeyPair(directory, 'client_ed25519');
  const authorizedKeysFile = join(directory, 'authorized_keys');
  writeFileSync(authorizedKeysFile, `${clientKey.publicKey}\n`);
  const config = join(directory, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey.privateKeyFile}`,
      `AuthorizedKeysFile ${authorizedKeysFile}`,
      `PidFile ${join(directory, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      'PermitTTY no',
      'X11Forwarding no',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const start = (port?: number) =>
    startServiceProcess({
      command: sshService.binary,
      args: (chosen) => ['-D', '-e', '-f', config, '-p', String(chosen)],
      unprivileged: false,
      ...(port === undefined ? {} : { port }),
    });
  let service: ServiceProcess = await start();
  const { port } = service;
  const user = userInfo().username;
  const knownHostsFile = join(directory, 'known_hosts');
  writeFileSync(knownHostsFile, `[127.0.0.1]:${port} ${hostKey.publicKey}\n`);
  const hashedKnownHostsFile = join(directory, 'known_hosts_hashed');
  writeFileSync(hashedKnownHostsFile, readFileSync(knownHostsFile));
  execFileSync('/usr/bin/ssh-keygen', ['-q', '-H', '-f', hashedKnownHostsFile], { stdio: 'pipe' });
  let earlierLog = '';
  const kill = async () => {
    const pids = processTree(service.child.pid ?? 0);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await service.stop(0);
    earlierLog += service.output();
    while (alivePids(pids).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return {
    port,
    user,
    bastion: `${user}@127.0.0.1:${port}`,
    hostKey,
    clientKey,
    authorizedKeysFile,
    knownHostsFile,
    hashedKnownHostsFile,
    log: () => earlierLog + service.output(),
    sessions: () => Math.max(processTree(service.child.pid ?? 0).length - 1, 0),
    directory,
    kill,
    async restart() {
      service = await start(port);
    },
    async stop() {
      await kill();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
