/**
 * What the account may do, read from `SHOW GRANTS` on the first connection
 * that succeeds. An account that could read or write server files, signal
 * other sessions, stop the server, hand out privileges or write outside its
 * own schemas is refused unless the operator allows it: the statement gate
 * would then be the only thing between a model and the whole server.
 */

/** Global privileges a reader may hold on *.*: they read and write nothing beyond what SELECT reads. */
const harmlessGlobalPrivileges = new Set(['USAGE', 'SELECT', 'SHOW VIEW', 'SHOW DATABASES']);

export interface GrantFindings {
  /** The privileges that make the account privileged, as SHOW GRANTS names them. */
  privileges: string[];
  /** Roles granted to the account, whose grants count as its own. */
  roles: string[];
}

function privilegeList(text: string): string[] {
  return text
    .split(',')
    .map((privilege) =>
      privilege
        .trim()
        .replace(/\s*\(.*\)$/, '')
        .toUpperCase(),
    )
    .filter((privilege) => privilege !== '');
}

/** Reads the lines of SHOW GRANTS (the account's and its roles') for what makes an account privileged. */
export function privilegedGrants(lines: readonly string[]): GrantFindings {
  const privileges = new Set<string>();
  const roles: string[] = [];
  for (const line of lines) {
    if (/\sWITH\s+(?:.*\s)?GRANT\s+OPTION/i.test(line)) privileges.add('GRANT OPTION');
    const onObject = /^GRANT\s+(.+?)\s+ON\s+(.+?)\s+TO\s/i.exec(line);
    if (onObject === null) {
      const role = /^GRANT\s+(`(?:[^`]|``)+`|[^\s@]+)\s+TO\s/i.exec(line);
      if (role?.[1] !== undefined) roles.push(role[1].replace(/^`|`$/g, '').replaceAll('``', '`'));
      continue;
    }
    const [, granted = '', object = ''] = onObject;
    if (/^PROXY$/i.test(granted.trim())) {
      privileges.add('PROXY');
      continue;
    }
    const target = object.replaceAll('`', '').toLowerCase();
    for (const privilege of privilegeList(granted)) {
      if (target === '*.*' && !harmlessGlobalPrivileges.has(privilege)) privileges.add(privilege);
      // Writing the grant tables is granting oneself anything.
      if (target.startsWith('mysql.') && privilege !== 'SELECT' && privilege !== 'USAGE') {
        privileges.add(`${privilege} ON mysql`);
      }
    }
  }
  return { privileges: [...privileges], roles };
}

/** Why the server will not serve through an account, and the two statements that make one it will. */
export function privilegedRoleMessage(
  databaseName: string,
  account: string,
  privileges: readonly string[],
  schema: string | undefined,
): string {
  const on = schema === undefined ? '`your_schema`.*' : `\`${schema.replaceAll('`', '``')}\`.*`;
  return (
    `database "${databaseName}": the account ${account} has ${privileges.join(', ')}, so a model's SQL could reach beyond the data; ` +
    'connect as an account that can only read, made with: ' +
    `CREATE USER 'mcp_reader'@'%' IDENTIFIED BY 'choose-one'; GRANT SELECT ON ${on} TO 'mcp_reader'@'%'; ` +
    '(or pass --allow-privileged-role to serve through it anyway)'
  );
}
