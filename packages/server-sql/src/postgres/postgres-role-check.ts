import type { ClientBase } from 'pg';

/** The predefined roles that reach outside the data: server files, programs, other sessions. */
const privilegedRoles = [
  'pg_read_server_files',
  'pg_write_server_files',
  'pg_execute_server_program',
  'pg_signal_backend',
];

/** What the role a database is served through may do beyond reading, in words; empty when nothing. */
export interface RolePrivileges {
  role: string;
  privileges: string[];
}

/**
 * Asks the server what the connected role may do: superuser, or a member
 * (direct or through other roles, inherited or not, since SET ROLE would
 * reach it) of a predefined role that reads or writes server files, runs
 * programs or signals other sessions.
 */
export async function rolePrivileges(client: ClientBase): Promise<RolePrivileges> {
  const { rows } = await client.query<{ role: string; superuser: boolean; member_of: string[] }>({
    text: `SELECT current_user AS role,
             (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
             ARRAY(SELECT name FROM unnest($1::text[]) AS name
                   WHERE pg_has_role(current_user, name, 'MEMBER')) AS member_of`,
    values: [privilegedRoles],
  });
  const row = rows[0] as { role: string; superuser: boolean; member_of: string[] };
  // A superuser counts as a member of every role; the one word says it all.
  return { role: row.role, privileges: row.superuser ? ['superuser'] : row.member_of };
}

/** Why the server will not serve through a role, and the two statements that make one it will. */
export function privilegedRoleMessage(database: string, { role, privileges }: RolePrivileges): string {
  return (
    `database "${database}": the role "${role}" has ${privileges.join(', ')}, so a model's SQL could reach beyond the data; ` +
    'connect as a role that can only read, made with: ' +
    "CREATE ROLE mcp_reader LOGIN PASSWORD 'choose-one'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO mcp_reader; " +
    '(or pass --allow-privileged-role to serve through it anyway)'
  );
}
