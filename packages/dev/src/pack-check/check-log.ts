/** The pack check's tally: each check printed as it ends, failures kept with their output. */
export interface CheckLog {
  /** Runs a check; a throw is a failure with the command's output. */
  check(label: string, action: () => void): void;
  /** Runs a check that takes time; a rejection is a failure. */
  checkAsync(label: string, action: () => Promise<void>): Promise<void>;
  fail(message: string): void;
  readonly passed: number;
  readonly failures: readonly string[];
}

function outputOf(error: unknown): string {
  const output = error as { stdout?: string; stderr?: string; message?: string };
  return `${output.stdout ?? ''}${output.stderr ?? ''}${output.message ?? String(error)}`;
}

export function createCheckLog(): CheckLog {
  let passed = 0;
  const failures: string[] = [];
  return {
    check(label, action) {
      try {
        action();
        passed++;
        console.log(`  ok   ${label}`);
      } catch (error) {
        failures.push(`${label}: ${outputOf(error)}`);
        console.log(`  FAIL ${label}\n${outputOf(error)}`);
      }
    },
    async checkAsync(label, action) {
      try {
        await action();
        passed++;
        console.log(`  ok   ${label}`);
      } catch (error) {
        failures.push(`${label}: ${outputOf(error)}`);
        console.log(`  FAIL ${label}: ${outputOf(error)}`);
      }
    },
    fail(message) {
      failures.push(message);
      console.log(`  FAIL ${message}`);
    },
    get passed() {
      return passed;
    },
    get failures() {
      return failures;
    },
  };
}
