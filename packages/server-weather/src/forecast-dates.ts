import { ToolError } from '@toolshed/mcp-core';

/** Where a dated request goes, and the dates it asks for (local dates of the place, inclusive). */
export interface DatedRequest {
  source: 'forecast' | 'archive';
  startDate: string;
  endDate: string;
}

/** The archive's first day: ERA5 reanalysis starts in 1940. */
export const archiveStart = '1940-01-01';
/**
 * Days the archive trails today: reanalysis is published about five days
 * late, plus one for the place's date being a day off UTC's. Dates this
 * recent come from the forecast API, which keeps its last 92 days.
 */
const archiveLagDays = 6;
const forecastAheadDays = 16;
const dayMs = 86_400_000;

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

function dateText(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** The date as a UTC midnight, or undefined when it is not a real calendar date. */
function parseDate(text: string): number | undefined {
  if (!isoDate.test(text)) return undefined;
  const epochMs = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(epochMs) || dateText(epochMs) !== text ? undefined : epochMs;
}

/**
 * Where `days` days from `startDate` come from. Past days go to the archive
 * (from 1940), except those it does not have yet — the last few days — which
 * the forecast API still keeps; today and later are forecasts, up to 16 days
 * ahead. A range of at most 16 days never needs both. `now` is the clock,
 * UTC; the place's date may be a day either side, which the margins cover.
 */
export function planDatedRequest(startDate: string, days: number, now: number): DatedRequest {
  const start = parseDate(startDate);
  if (start === undefined) throw new ToolError(`start_date "${startDate}" is not a date; give YYYY-MM-DD.`);
  const end = start + (days - 1) * dayMs;
  const today = parseDate(dateText(now)) ?? now;
  const endDate = dateText(end);
  if (startDate < archiveStart) {
    throw new ToolError(`The archive starts on ${archiveStart}; give a start_date from then on.`);
  }
  if (end <= today - archiveLagDays * dayMs) return { source: 'archive', startDate, endDate };
  const lastForecastDay = today + (forecastAheadDays - 1) * dayMs;
  if (end > lastForecastDay) {
    throw new ToolError(
      `Forecasts reach ${forecastAheadDays} days ahead, to ${dateText(lastForecastDay)}; give an earlier start_date or fewer days.`,
    );
  }
  // With 16 days at most, a range that ends this recently starts within the forecast API's 92 past days.
  return { source: 'forecast', startDate, endDate };
}
