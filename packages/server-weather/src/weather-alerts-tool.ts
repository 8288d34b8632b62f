import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { withinCallTimeLimit } from './call-time-limit.ts';
import { formatPoint } from './coordinates.ts';
import { freshnessOutput, locationArguments, locationOutput } from './location-arguments.ts';
import { activeAlerts, type NwsAlert, pointCoverage } from './nws-alerts.ts';
import { resolveLocation } from './resolve-location.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { weatherResult } from './weather-result.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

const severityOrder = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'];
/** Alert texts run long; the headline and instruction matter most. */
const maxDescriptionLength = 3000;

/** A text field of an alert, null where NWS gives none. */
function nullableText() {
  return z.string().nullable();
}

function shapeAlert(alert: NwsAlert) {
  const description = alert.description;
  return {
    event: alert.event,
    headline: alert.headline,
    severity: alert.severity,
    urgency: alert.urgency,
    certainty: alert.certainty,
    area: alert.areaDesc,
    onset: alert.onset,
    effective: alert.effective,
    expires: alert.expires,
    ends: alert.ends,
    sender: alert.senderName,
    description:
      description !== null && description.length > maxDescriptionLength
        ? `${description.slice(0, maxDescriptionLength)}…`
        : description,
    instruction: alert.instruction,
    id: alert.id,
  };
}

export function createWeatherAlertsTool(context: WeatherServerContext): Tool {
  return defineTool({
    name: 'get_weather_alerts',
    title: 'Weather alerts (US)',
    description:
      'Active US National Weather Service warnings, watches and advisories at a place, most severe first. ' +
      'Outside the US and its territories coverage is "none": no data, NOT no alerts.',
    input: () => z.object({ ...locationArguments() }),
    output: () => {
      const text = nullableText();
      return z.object({
        location: locationOutput(),
        coverage: z
          .enum(['nws', 'none'])
          .describe('"none": the point is outside NWS coverage; no alerts can be known here'),
        area: z
          .object({
            city: text,
            state: text,
            office: text.describe('NWS forecast office (CWA) id'),
            forecast_zone: text,
            county_zone: text,
          })
          .optional(),
        count: z.number().int(),
        alerts: z.array(
          z.object({
            event: text,
            headline: text,
            severity: text,
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
          }),
        ),
        summary: z.string().describe('One sentence to pass on as it is'),
        freshness: freshnessOutput(),
        notes: z.array(z.string()).optional(),
      });
    },
    jsonSchemas: toolJsonSchemas.get_weather_alerts,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: (args, call) =>
      withinCallTimeLimit(context.callTimeLimitMs, call.signal, async (signal) => {
        const location = await resolveLocation(context, args, signal);
        const point = formatPoint(location.latitude, location.longitude).replace(',', ', ');
        const place = location.output.name ?? point;
        const coverage = await pointCoverage(context, location.latitude, location.longitude, signal);
        if (!coverage.value.covered) {
          return weatherResult(
            {
              coverage: 'none',
              count: 0,
              alerts: [],
              summary: `No alert coverage here: the US National Weather Service issues alerts for the United States and its territories, and ${place} is outside its area. This does not mean there are no alerts; check the national weather service for that country.`,
            },
            location,
            coverage,
            null,
          );
        }
        const area = coverage.value;
        const cached = await activeAlerts(context, location.latitude, location.longitude, signal);
        const alerts = cached.value.alerts
          .filter((alert) => alert.status === null || alert.status === 'Actual')
          .sort(
            (left, right) =>
              rank(left.severity) - rank(right.severity) || (left.onset ?? '').localeCompare(right.onset ?? ''),
          )
          .map(shapeAlert);
        const nearest = [area.city, area.state].filter((part) => part !== null).join(', ');
        const where = area.city === null ? place : `${place} (near ${nearest})`;
        const summary =
          alerts.length === 0
            ? `No active NWS alerts for ${where}.`
            : `${alerts.length} active NWS alert${alerts.length === 1 ? '' : 's'} for ${where}: ${alerts.map((alert) => alert.event ?? 'alert').join(', ')}.`;
        return weatherResult(
          {
            coverage: 'nws',
            area: {
              city: area.city,
              state: area.state,
              office: area.office,
              forecast_zone: area.forecastZone,
              county_zone: area.county,
            },
            count: alerts.length,
            alerts,
            summary,
          },
          location,
          { ...cached, stale: cached.stale || coverage.stale, error: cached.error ?? coverage.error },
          area.timeZone,
        );
      }),
  });
}

function rank(severity: string | null): number {
  const index = severityOrder.indexOf(severity ?? 'Unknown');
  return index === -1 ? severityOrder.length : index;
}
