import { ToolError } from '@toolshed/mcp-core';
import { StatementTimeLimit } from './statement-time-limit.ts';

/** An export's own time limit (`--export-timeout-ms`), far above a query's, and what is said when it passes. */
export class ExportTimeLimit extends StatementTimeLimit {
  override expired(): ToolError {
    return new ToolError(
      `The export was stopped after ${this.ms} ms, the export time limit (--export-timeout-ms), and no file was written. Export a part at a time (a WHERE clause on a key range), make the statement cheaper (check it with explain_query), or ask the operator to raise the limit.`,
    );
  }

  protected override runningMessage(elapsedMs: number): string {
    return `export running for ${elapsedMs} ms; it is stopped at ${this.ms} ms`;
  }
}
