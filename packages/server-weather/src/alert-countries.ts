/**
 * Which alert source covers a country: the US National Weather Service for
 * the United States and its territories, MeteoAlarm for the European
 * countries that publish through it, Environment Canada for Canada.
 */
export type AlertSource = 'nws' | 'meteoalarm' | 'environment_canada';

/** ISO 3166-1 codes NWS issues alerts for: the states and the territories. */
const nwsCountries = new Set(['US', 'PR', 'VI', 'GU', 'AS', 'MP', 'UM']);

/**
 * MeteoAlarm's country feeds (`meteoalarm-legacy-atom-<slug>`), by ISO code:
 * the national weather services of EUMETNET that publish their warnings there.
 */
export const meteoalarmFeeds: ReadonlyMap<string, string> = new Map([
  ['AD', 'andorra'],
  ['AT', 'austria'],
  ['BA', 'bosnia-herzegovina'],
  ['BE', 'belgium'],
  ['BG', 'bulgaria'],
  ['CH', 'switzerland'],
  ['CY', 'cyprus'],
  ['CZ', 'czechia'],
  ['DE', 'germany'],
  ['DK', 'denmark'],
  ['EE', 'estonia'],
  ['ES', 'spain'],
  ['FI', 'finland'],
  ['FR', 'france'],
  ['GB', 'united-kingdom'],
  ['GR', 'greece'],
  ['HR', 'croatia'],
  ['HU', 'hungary'],
  ['IE', 'ireland'],
  ['IL', 'israel'],
  ['IS', 'iceland'],
  ['IT', 'italy'],
  ['LT', 'lithuania'],
  ['LU', 'luxembourg'],
  ['LV', 'latvia'],
  ['MD', 'moldova'],
  ['ME', 'montenegro'],
  ['MK', 'republic-of-north-macedonia'],
  ['MT', 'malta'],
  ['NL', 'netherlands'],
  ['NO', 'norway'],
  ['PL', 'poland'],
  ['PT', 'portugal'],
  ['RO', 'romania'],
  ['RS', 'serbia'],
  ['SE', 'sweden'],
  ['SI', 'slovenia'],
  ['SK', 'slovakia'],
  ['UA', 'ukraine'],
]);

/** The source that covers a country, or undefined where none of them does. */
export function alertSourceFor(countryCode: string | null): AlertSource | undefined {
  if (countryCode === null) return undefined;
  const code = countryCode.toUpperCase();
  if (nwsCountries.has(code)) return 'nws';
  if (meteoalarmFeeds.has(code)) return 'meteoalarm';
  if (code === 'CA') return 'environment_canada';
  return undefined;
}

/** The IANA zones of the covered countries (links included), as a zone lookup by coordinates answers them. */
const coveredZones: Readonly<Record<string, readonly string[]>> = {
  AD: ['Europe/Andorra'],
  AT: ['Europe/Vienna'],
  BA: ['Europe/Sarajevo'],
  BE: ['Europe/Brussels'],
  BG: ['Europe/Sofia'],
  CH: ['Europe/Zurich'],
  CY: ['Asia/Nicosia', 'Asia/Famagusta', 'Europe/Nicosia'],
  CZ: ['Europe/Prague'],
  DE: ['Europe/Berlin', 'Europe/Busingen'],
  DK: ['Europe/Copenhagen'],
  EE: ['Europe/Tallinn'],
  ES: ['Europe/Madrid', 'Africa/Ceuta', 'Atlantic/Canary'],
  FI: ['Europe/Helsinki'],
  FR: ['Europe/Paris'],
  GB: ['Europe/London'],
  GR: ['Europe/Athens'],
  HR: ['Europe/Zagreb'],
  HU: ['Europe/Budapest'],
  IE: ['Europe/Dublin'],
  IL: ['Asia/Jerusalem', 'Asia/Tel_Aviv'],
  IS: ['Atlantic/Reykjavik'],
  IT: ['Europe/Rome'],
  LT: ['Europe/Vilnius'],
  LU: ['Europe/Luxembourg'],
  LV: ['Europe/Riga'],
  MD: ['Europe/Chisinau'],
  ME: ['Europe/Podgorica'],
  MK: ['Europe/Skopje'],
  MT: ['Europe/Malta'],
  NL: ['Europe/Amsterdam'],
  NO: ['Europe/Oslo'],
  PL: ['Europe/Warsaw'],
  PT: ['Europe/Lisbon', 'Atlantic/Madeira', 'Atlantic/Azores'],
  RO: ['Europe/Bucharest'],
  RS: ['Europe/Belgrade'],
  SE: ['Europe/Stockholm'],
  SI: ['Europe/Ljubljana'],
  SK: ['Europe/Bratislava'],
  UA: ['Europe/Kyiv', 'Europe/Kiev', 'Europe/Uzhgorod', 'Europe/Zaporozhye'],
  CA: [
    'America/St_Johns',
    'America/Halifax',
    'America/Glace_Bay',
    'America/Moncton',
    'America/Goose_Bay',
    'America/Blanc-Sablon',
    'America/Toronto',
    'America/Montreal',
    'America/Nipigon',
    'America/Thunder_Bay',
    'America/Iqaluit',
    'America/Pangnirtung',
    'America/Atikokan',
    'America/Winnipeg',
    'America/Rainy_River',
    'America/Resolute',
    'America/Rankin_Inlet',
    'America/Regina',
    'America/Swift_Current',
    'America/Edmonton',
    'America/Cambridge_Bay',
    'America/Yellowknife',
    'America/Inuvik',
    'America/Creston',
    'America/Dawson_Creek',
    'America/Fort_Nelson',
    'America/Whitehorse',
    'America/Dawson',
    'America/Vancouver',
  ],
};

const zoneCountries: ReadonlyMap<string, string> = new Map(
  Object.entries(coveredZones).flatMap(([code, zones]) => zones.map((zone) => [zone, code] as const)),
);

/**
 * The country of a point given by coordinates, from the IANA time zone
 * Open-Meteo finds for it: in the countries these sources cover, each zone
 * belongs to one country. Undefined for zones of countries none covers.
 */
export function countryOfTimeZone(timezone: string | null): string | undefined {
  return timezone === null ? undefined : zoneCountries.get(timezone);
}
