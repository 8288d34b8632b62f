import { defineView, onFirstUse, type Resource, viewDocument } from '@toolshed/mcp-core';

/** The `get_forecast` tool's view. */
export const forecastViewUri = 'ui://toolshed-weather/forecast';

const style = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1b1b1f);
--muted:var(--color-text-secondary,#5f6368);--line:var(--color-border-primary,#d5d7db);--warm:#e8710a;--wet:#1a73e8;
font:13px/1.4 var(--font-sans,system-ui,sans-serif)}
[data-theme=dark]{--bg:var(--color-background-primary,#1e1f22);--fg:var(--color-text-primary,#e8e8ea);
--muted:var(--color-text-secondary,#a0a3a8);--line:var(--color-border-primary,#3a3c40)}
body{margin:0;padding:10px;background:var(--bg);color:var(--fg)}
h1{font-size:15px;margin:0 0 2px}#note{color:var(--muted);margin-bottom:8px}
#alert{border-left:4px solid #d93025;background:rgba(217,48,37,.12);padding:6px 8px;margin-bottom:8px}
#alert:empty{display:none}#error{color:#c5221f}
#days{display:flex;gap:6px;overflow-x:auto;margin-bottom:8px}
.day{border:1px solid var(--line);border-radius:6px;padding:6px 8px;min-width:84px}
.day b{display:block}.day .hi{color:var(--warm);font-weight:600}.day .lo,.day .c{color:var(--muted)}.day .p{color:var(--wet)}
svg{width:100%;height:auto;max-height:220px}svg text{fill:var(--muted);font-size:10px}
polyline{fill:none;stroke:var(--warm);stroke-width:2}rect{fill:var(--wet);opacity:.55}`;

const body = `<h1 id="place">Waiting for the forecast…</h1><div id="note"></div><div id="alert" role="alert"></div>
<div id="error" role="alert"></div><div id="days"></div><div id="chart"></div>`;

// Hand-written; every value is set with textContent, so no text from an upstream becomes markup.
const script = `"use strict";
var svgNs = "http://www.w3.org/2000/svg";
function $(id) { return document.getElementById(id); }
function make(tag, text, className) {
  var node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}
function number(value, unit) { return typeof value === "number" ? Math.round(value) + (unit || "") : "–"; }
function weekday(date) {
  var parsed = new Date(date + "T12:00:00Z");
  return isNaN(parsed) ? date : parsed.toLocaleDateString(undefined, { weekday: "short", day: "numeric", timeZone: "UTC" });
}
function svg(tag, attributes) {
  var node = document.createElementNS(svgNs, tag);
  for (var name in attributes) node.setAttribute(name, String(attributes[name]));
  return node;
}
// Temperature as a line and precipitation as bars, over the hourly rows (or the days when there are none).
function chart(rows, what, temperatureKey, rainKey, labelOf, units) {
  var box = $("chart");
  box.textContent = "";
  var temperatures = rows.map(function (row) { return row[temperatureKey]; }).filter(function (v) { return typeof v === "number"; });
  if (temperatures.length < 2) return;
  var width = 600, top = 8, height = 130, step = width / rows.length;
  var low = Math.min.apply(null, temperatures), high = Math.max.apply(null, temperatures), span = high - low || 1;
  var rain = Math.max.apply(null, rows.map(function (row) { return typeof row[rainKey] === "number" ? row[rainKey] : 0; })) || 1;
  var chartNode = svg("svg", { viewBox: "0 0 " + width + " " + (top + height + 34), role: "img",
    "aria-label": "Temperature and precipitation, " + rows.length + " " + what });
  var points = [];
  rows.forEach(function (row, index) {
    var x = index * step + step / 2;
    if (typeof row[rainKey] === "number" && row[rainKey] > 0) {
      var barHeight = row[rainKey] / rain * height * 0.6;
      chartNode.appendChild(svg("rect", { x: (x - step * 0.35).toFixed(1), y: (top + height - barHeight).toFixed(1), width: (step * 0.7).toFixed(1), height: barHeight.toFixed(1) }));
    }
    if (typeof row[temperatureKey] === "number") points.push(x.toFixed(1) + "," + (top + height - (row[temperatureKey] - low) / span * height).toFixed(1));
  });
  chartNode.appendChild(svg("polyline", { points: points.join(" ") }));
  var every = Math.max(1, Math.ceil(rows.length / 8));
  rows.forEach(function (row, index) {
    if (index % every !== 0) return;
    var label = svg("text", { x: (index * step + 2).toFixed(1), y: top + height + 14 });
    label.textContent = labelOf(row);
    chartNode.appendChild(label);
  });
  var legend = svg("text", { x: 0, y: top + height + 28 });
  legend.textContent = "Temperature " + number(low) + "–" + number(high) + (units.temperature || "") + ", precipitation up to " + rain + " " + (units.rain || "");
  chartNode.appendChild(legend);
  box.appendChild(chartNode);
}
function showAlerts(location) {
  if (!location || typeof location.latitude !== "number") return;
  mcpView.callTool("get_weather_alerts", { latitude: location.latitude, longitude: location.longitude }).then(function (answer) {
    var data = answer && !answer.isError && answer.structuredContent;
    if (!data || !data.alerts || data.alerts.length === 0) return;
    var first = data.alerts[0];
    $("alert").textContent = (first.event || first.headline || "Weather alert") + (first.severity ? " (" + first.severity + ")" : "") +
      (data.alerts.length > 1 ? " and " + (data.alerts.length - 1) + " more" : "");
  }, function () {});
}
mcpView.start({
  name: "toolshed-weather-forecast",
  onResult: function (result) {
    var data = result.structuredContent;
    if (result.isError || !data || !Array.isArray(data.daily)) {
      $("place").textContent = "";
      $("error").textContent = (result.content && result.content[0] && result.content[0].text) || "No forecast to show.";
      return;
    }
    var location = data.location || {};
    $("place").textContent = location.name || (location.latitude + ", " + location.longitude);
    $("note").textContent = (data.source === "archive" ? "Past weather (archive)" : "Forecast") + (location.timezone ? " · local time, " + location.timezone : "");
    var days = $("days"), dailyUnits = (data.units && data.units.daily) || {};
    days.textContent = "";
    data.daily.forEach(function (day) {
      var card = make("div", undefined, "day");
      card.appendChild(make("b", weekday(day.date)));
      card.appendChild(make("span", number(day.temperature_max, dailyUnits.temperature_max), "hi"));
      card.appendChild(make("span", " / " + number(day.temperature_min, dailyUnits.temperature_min), "lo"));
      card.appendChild(make("div", day.conditions || "", "c"));
      if (typeof day.precipitation_probability_max === "number") card.appendChild(make("div", day.precipitation_probability_max + "% rain", "p"));
      days.appendChild(card);
    });
    if (Array.isArray(data.hourly) && data.hourly.length > 1) {
      var hourlyUnits = (data.units && data.units.hourly) || {};
      chart(data.hourly, "hours", "temperature", "precipitation", function (row) { return String(row.time).slice(11, 16); },
        { temperature: hourlyUnits.temperature, rain: hourlyUnits.precipitation });
    } else {
      chart(data.daily.map(function (day) { return { t: day.temperature_max, r: day.precipitation_sum, date: day.date }; }), "days", "t", "r",
        function (row) { return weekday(row.date); }, { temperature: dailyUnits.temperature_max, rain: dailyUnits.precipitation_sum });
    }
    mcpView.updateModelContext({ structuredContent: { shown: "forecast card", days: data.daily.length, hours: (data.hourly || []).length } }).catch(function () {});
    showAlerts(location);
  }
});`;

/** The forecast card: days, an hourly temperature and precipitation chart, and an alert banner. */
export const forecastViewHtml: () => string = onFirstUse(() =>
  viewDocument({ title: 'Forecast', style, body, script }),
);

export function createForecastView(): Resource {
  return defineView({
    uri: forecastViewUri,
    name: 'forecast-view',
    title: 'Forecast card',
    description: 'A get_forecast result as a card with a temperature and precipitation chart and alerts',
    html: forecastViewHtml,
  });
}
