// Each test file gets a state directory of its own: the host's default state store (and audit log) lives
// there, so no test shares rate budgets or approvals with another, or with the machine's user.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), 'toolshed-host-test-state-'));
