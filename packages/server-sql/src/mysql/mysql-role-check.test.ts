import { describe, expect, it } from 'vitest';
import { privilegedGrants, privilegedRoleMessage } from './mysql-role-check.ts';

describe('what SHOW GRANTS says about an account', () => {
  it('accepts a reader and an owner of its schema', () => {
    expect(
      privilegedGrants([
        "GRANT USAGE ON *.* TO `reader`@`%` IDENTIFIED BY PASSWORD '*0123456789ABCDEF'",
        'GRANT SELECT ON `shop`.* TO `reader`@`%`',
        'GRANT ALL PRIVILEGES ON `shop`.* TO `owner`@`%`',
        'GRANT SELECT, SHOW VIEW ON *.* TO `auditor`@`%`',
      ]),
    ).toEqual({ privileges: [], roles: [] });
  });

  it.each([
    ['GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION', ['GRANT OPTION', 'ALL PRIVILEGES']],
    ['GRANT FILE ON *.* TO `x`@`%`', ['FILE']],
    ['GRANT PROCESS, SUPER, SHUTDOWN ON *.* TO `x`@`%`', ['PROCESS', 'SUPER', 'SHUTDOWN']],
    ['GRANT SELECT ON `shop`.* TO `x`@`%` WITH GRANT OPTION', ['GRANT OPTION']],
    ['GRANT INSERT ON `mysql`.* TO `x`@`%`', ['INSERT ON mysql']],
    ['GRANT UPDATE (`authentication_string`) ON `mysql`.`global_priv` TO `x`@`%`', ['UPDATE ON mysql']],
    ['GRANT PROXY ON `root`@`localhost` TO `x`@`%`', ['PROXY']],
    ['GRANT BINLOG_ADMIN,CONNECTION_ADMIN ON *.* TO `x`@`%`', ['BINLOG_ADMIN', 'CONNECTION_ADMIN']],
  ])('%s', (line, privileges) => {
    expect(privilegedGrants([line]).privileges).toEqual(privileges);
  });

  it('names the roles granted, whose grants are read too', () => {
    expect(privilegedGrants(['GRANT `file_role` TO `x`@`%`', 'GRANT `a``b` TO `x`@`%`']).roles).toEqual([
      'file_role',
      'a`b',
    ]);
  });

  it('says what to do: the two lines that make a reader', () => {
    const message = privilegedRoleMessage('shop', 'admin@%', ['SUPER'], 'shop');
    expect(message).toContain('the account admin@% has SUPER');
    expect(message).toContain("CREATE USER 'mcp_reader'@'%' IDENTIFIED BY 'choose-one';");
    expect(message).toContain("GRANT SELECT ON `shop`.* TO 'mcp_reader'@'%';");
    expect(message).toContain('--allow-privileged-role');
  });
});
