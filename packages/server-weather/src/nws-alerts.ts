import { onFirstUse } from '@toolshed/mcp-core';
import * as z from 'zod';
import { formatPoint } from './coordinates.ts';
import type { CachedValue } from './response-cache.ts';
import { fetchUpstream, type WeatherServerContext } from './weather-server-context.ts';

/** An absent or null text field of an NWS answer, as null. */
function text() {
  return z
    .string()
    .nullish()
    .transform((value) => value ?? null);
}

const pointAnswer = onFirstUse(buildPointAnswer);

/**
 * The parts of NWS's /points answer this server reads (where the point is and
 * its zones), as the coverage they say.
 */
function buildPointAnswer(): z.ZodType<PointCoverage> {
  const field = text();
  return z
    .object({
      properties: z.object({
        cwa: field,
        timeZone: field,
        forecastZone: field,
        county: field,
        relativeLocation: z
          .object({ properties: z.object({ city: field, state: field }) })
          .nullish()
          .transform((value) => value ?? null),
      }),
    })
    .transform(
      ({ properties }): PointCoverage => ({
        covered: true,
        city: properties.relativeLocation?.properties.city ?? null,
        state: properties.relativeLocation?.properties.state ?? null,
        office: properties.cwa,
        timeZone: properties.timeZone,
        forecastZone: zoneId(properties.forecastZone),
        county: zoneId(properties.county),
      }),
    );
}

/** What NWS says of a point: covered (with its area) or outside its area. */
export type PointCoverage =
  | {
      covered: true;
      city: string | null;
      state: string | null;
      office: string | null;
      timeZone: string | null;
      forecastZone: string | null;
      county: string | null;
    }
  | { covered: false };

const zoneId = (url: string | null): string | null => (url === null ? null : url.slice(url.lastIndexOf('/') + 1));

/**
 * Whether NWS covers a point. NWS answers 404 `InvalidPoint` outside the
 * United States and its territories; that answer is kept like any other, so
 * asking again about Berlin costs no request.
 */
export async function pointCoverage(
  context: WeatherServerContext,
  latitude: number,
  longitude: number,
  signal?: AbortSignal,
): Promise<CachedValue<PointCoverage>> {
  return fetchUpstream(context, {
    upstream: 'NWS',
    base: context.nwsUrl,
    path: `/points/${formatPoint(latitude, longitude)}`,
    kind: 'points',
    schema: pointAnswer(),
    signal,
    recover: (error) =>
      error.details.status === 404 && error.problemType === 'InvalidPoint' ? { covered: false as const } : undefined,
  });
}

/** An alert's properties as NWS issues them (CAP fields); absent ones are null. */
export interface NwsAlert {
  id: string | null;
  event: string | null;
  headline: string | null;
  severity: string | null;
  urgency: string | null;
  certainty: string | null;
  areaDesc: string | null;
  sent: string | null;
  effective: string | null;
  onset: string | null;
  expires: string | null;
  ends: string | null;
  senderName: string | null;
  description: string | null;
  instruction: string | null;
  status: string | null;
  messageType: string | null;
}

type AlertAnswerSchema = z.ZodType<{ features: { properties: NwsAlert }[]; updated: string | null }>;

const alertAnswer = onFirstUse(buildAlertAnswer);

function buildAlertAnswer(): AlertAnswerSchema {
  const field = text();
  return z.object({
    features: z.array(
      z.object({
        properties: z.object({
          id: field,
          event: field,
          headline: field,
          severity: field,
          urgency: field,
          certainty: field,
          areaDesc: field,
          sent: field,
          effective: field,
          onset: field,
          expires: field,
          ends: field,
          senderName: field,
          description: field,
          instruction: field,
          status: field,
          messageType: field,
        }),
      }),
    ),
    updated: field,
  });
}

/** Active alerts (warnings, watches, advisories) whose area contains the point. */
export async function activeAlerts(
  context: WeatherServerContext,
  latitude: number,
  longitude: number,
  signal?: AbortSignal,
): Promise<CachedValue<{ alerts: NwsAlert[]; updated: string | null }>> {
  const answer = await fetchUpstream(context, {
    upstream: 'NWS',
    base: context.nwsUrl,
    path: '/alerts/active',
    params: { point: formatPoint(latitude, longitude) },
    kind: 'alerts',
    schema: alertAnswer(),
    signal,
  });
  return {
    ...answer,
    value: { alerts: answer.value.features.map((feature) => feature.properties), updated: answer.value.updated },
  };
}
