import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freeLoopbackPort,
  type ServiceProcess,
  startServiceProcess,
  unprivilegedIds,
} from '@toolshed/mcp-core/testing';
import type { ImapOptions } from '../email-server-options.ts';
import { selfSignedCertificate } from './self-signed-certificate.ts';

export const dovecotService = { name: 'Dovecot', binary: '/usr/sbin/dovecot', debianPackage: 'dovecot-imapd' };

export interface DovecotServer {
  host: '127.0.0.1';
  /** Implicit TLS. */
  imapsPort: number;
  /** Plain greeting, STARTTLS offered. */
  imapPort: number;
  /** The certificate clients must trust. */
  ca: string;
  user: string;
  password: string;
  /** The user's maildir. */
  maildir: string;
  /** Writes messages straight into a mailbox's maildir (`INBOX` or a folder): fast, for large mailboxes. */
  deliver(mailbox: string, messages: readonly (string | Buffer)[], flags?: string): void;
  stop(): Promise<void>;
}

/** The names of the user and group Dovecot runs as: nobody's under root, else the current ones. */
function serviceAccount(ids: { uid: number; gid: number }): { user: string; group: string } {
  const nameOf = (file: string, id: number) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .find((fields) => Number(fields[2]) === id)?.[0] ?? String(id);
  return { user: nameOf('/etc/passwd', ids.uid), group: nameOf('/etc/group', ids.gid) };
}

/** What a test may change in the Dovecot it starts. */
export interface DovecotSettings {
  /** Lines added to the end of the configuration, such as an `imap_capability` that leaves an extension out. */
  extraConfiguration?: string;
  /**
   * Accept XOAUTH2 and OAUTHBEARER logins, each token checked at this
   * introspection endpoint (RFC 7662, `token=…` POSTed), besides the password.
   */
  oauth2IntrospectionUrl?: string;
}

function dovecotConfiguration(
  directory: string,
  ports: { imaps: number; imap: number },
  passwd: string,
  account: { user: string; group: string },
  settings: DovecotSettings,
): string {
  const oauth2 =
    settings.oauth2IntrospectionUrl === undefined
      ? ''
      : `
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = ${directory}/oauth2.conf.ext
}
`;
  return `
base_dir = ${directory}/run
state_dir = ${directory}/state
log_path = /dev/stderr
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <${directory}/cert.pem
ssl_key = <${directory}/key.pem
ssl_min_protocol = TLSv1.2
default_internal_user = ${account.user}
default_internal_group = ${account.group}
default_login_user = ${account.user}
auth_mechanisms = plain login${settings.oauth2IntrospectionUrl === undefined ? '' : ' xoauth2 oauthbearer'}
disable_plaintext_auth = yes
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}${settings.oauth2IntrospectionUrl === undefined ? '' : '\n  mechanisms = plain login'}
}${oauth2}
userdb {
  driver = passwd-file
  args = username_format=%u ${passwd}
  default_fields = home=${directory}/home/%u
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    special_use = \\Drafts
    auto = create
  }
  mailbox Sent {
    special_use = \\Sent
    auto = create
  }
  mailbox Trash {
    special_use = \\Trash
    auto = create
  }
  mailbox Archive {
    special_use = \\Archive
    auto = create
  }
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${ports.imap}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${ports.imaps}
    ssl = yes
  }
}
service anvil {
  chroot =
}
${settings.extraConfiguration ?? ''}
`;
}

function chownTree(path: string, ids: { uid: number; gid: number } | undefined): void {
  if (ids === undefined) return;
  chownSync(path, ids.uid, ids.gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, ids);
    else chownSync(child, ids.uid, ids.gid);
  }
}

/**
 * Debian's Dovecot, started for the tests as an unprivileged process on
 * 127.0.0.1: one passwd-file user, a maildir in a temporary directory, a
 * certificate made by openssl for the run, IMAPS and IMAP with STARTTLS on
 * free ports, the special-use mailboxes created.
 */
export async function startDovecot(settings: DovecotSettings = {}): Promise<DovecotServer> {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-dovecot-'));
  const ids = unprivilegedIds();
  const owner = ids ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const user = 'reader@example.com';
  const password = 'correct horse battery staple';
  const { key, cert } = selfSignedCertificate();
  for (const sub of ['run', 'state', `home/${user}`]) mkdirSync(join(directory, sub), { recursive: true });
  writeFileSync(join(directory, 'cert.pem'), cert);
  writeFileSync(join(directory, 'key.pem'), key, { mode: 0o600 });
  const passwd = join(directory, 'passwd');
  writeFileSync(passwd, `${user}:{PLAIN}${password}:${owner.uid}:${owner.gid}::::\n`);
  const maildir = join(directory, 'home', user, 'Maildir');
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
  if (settings.oauth2IntrospectionUrl !== undefined) {
    writeFileSync(
      join(directory, 'oauth2.conf.ext'),
      [
        `introspection_url = ${settings.oauth2IntrospectionUrl}`,
        'introspection_mode = post',
        'force_introspection = yes',
        'username_attribute = username',
        'active_attribute = active',
        'active_value = true',
        '',
      ].join('\n'),
    );
  }
  chownTree(directory, ids);
  // startServiceProcess checks the port it chose; the STARTTLS port is taken from a few chosen ahead.
  const spare = [
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
  ];
  let imapPort = 0;
  const configuration = join(directory, 'dovecot.conf');
  const service: ServiceProcess = await startServiceProcess({
    command: dovecotService.binary,
    args(port) {
      imapPort = spare.shift() ?? port + 1;
      writeFileSync(
        configuration,
        dovecotConfiguration(directory, { imaps: port, imap: imapPort }, passwd, serviceAccount(owner), settings),
      );
      return ['-F', '-c', configuration];
    },
    cwd: directory,
    listenWithinMs: 30_000,
  });
  let sequence = 0;
  return {
    host: '127.0.0.1',
    imapsPort: service.port,
    imapPort,
    ca: cert,
    user,
    password,
    maildir,
    deliver(mailbox, messages, flags = '') {
      const folder = mailbox === 'INBOX' ? maildir : join(maildir, `.${mailbox.replaceAll('/', '.')}`);
      for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(folder, sub), { recursive: true });
      const stamp = Math.floor(Date.now() / 1000);
      for (const message of messages) {
        sequence++;
        // Dovecot numbers new messages in the order of their names: padded, so that is the order they came in.
        const name = join(
          folder,
          'cur',
          `${stamp}.M${String(sequence).padStart(8, '0')}P${process.pid}.toolshed:2,${flags}`,
        );
        writeFileSync(name, typeof message === 'string' ? message.replace(/\r?\n/g, '\n') : message);
      }
      chownTree(folder, ids);
    },
    async stop() {
      await service.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The server's `imap` options for this Dovecot, over IMAPS or STARTTLS. */
export function imapOptions(dovecot: DovecotServer, security: 'tls' | 'starttls' = 'tls'): ImapOptions {
  return {
    host: dovecot.host,
    port: security === 'tls' ? dovecot.imapsPort : dovecot.imapPort,
    security,
    user: dovecot.user,
    password: dovecot.password,
    ca: dovecot.ca,
  };
}
