import { neutraliseUntrustedText, untrustedLine } from '@toolshed/guards';
import * as z from 'zod';

/** A one-line field of an alert (an event, an area): cleaned, line breaks as spaces. */
function alertLine(text: string | null): string | null {
  return text === null ? null : untrustedLine(text).trim();
}

/**
 * One alert as every source's answer gives it: CAP's fields (NWS and
 * MeteoAlarm issue CAP; Environment Canada's feed fills what it has), null
 * where the source gives none. Every text in it is third-party text.
 */
export interface AlertRow {
  event: string | null;
  headline: string | null;
  severity: string | null;
  urgency: string | null;
  certainty: string | null;
  area: string | null;
  onset: string | null;
  effective: string | null;
  expires: string | null;
  ends: string | null;
  sender: string | null;
  description: string | null;
  instruction: string | null;
  id: string | null;
}

/** The output schema of an alert row. */
export function alertRowOutput(): z.ZodType<AlertRow> {
  const text = z.string().nullable();
  return z.object({
    event: text,
    headline: text,
    severity: text.describe('CAP severity: Extreme, Severe, Moderate, Minor or Unknown'),
    urgency: text,
    certainty: text,
    area: text,
    onset: text,
    effective: text,
    expires: text,
    ends: text,
    sender: text,
    description: text,
    instruction: text,
    id: text,
  });
}

const severityOrder = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'];
/** Alert texts run long; the headline and instruction matter most. */
const maxTextLength = 3000;

function rank(severity: string | null): number {
  const index = severityOrder.indexOf(severity ?? 'Unknown');
  return index === -1 ? severityOrder.length : index;
}

function longText(text: string | null): string | null {
  if (text === null) return null;
  const clean = neutraliseUntrustedText(text).trim();
  return clean.length > maxTextLength ? `${clean.slice(0, maxTextLength)}…` : clean;
}

/** A row with every text cleaned for the result: one-line fields on one line, long ones capped. */
function cleanRow(row: AlertRow): AlertRow {
  return {
    event: alertLine(row.event),
    headline: alertLine(row.headline),
    severity: alertLine(row.severity),
    urgency: alertLine(row.urgency),
    certainty: alertLine(row.certainty),
    area: alertLine(row.area),
    onset: alertLine(row.onset),
    effective: alertLine(row.effective),
    expires: alertLine(row.expires),
    ends: alertLine(row.ends),
    sender: alertLine(row.sender),
    description: longText(row.description),
    instruction: longText(row.instruction),
    id: alertLine(row.id),
  };
}

/** The rows as the result gives them: cleaned, most severe first, then by onset. */
export function orderedAlertRows(rows: readonly AlertRow[]): AlertRow[] {
  return rows
    .map(cleanRow)
    .sort(
      (left, right) =>
        rank(left.severity) - rank(right.severity) || (left.onset ?? '').localeCompare(right.onset ?? ''),
    );
}
