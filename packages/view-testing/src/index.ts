export { bundleAppBridgeHost } from './bundle-app-bridge-host.ts';
export { chromiumBinary, chromiumService, chromiumSwitches, launchChromium } from './chromium-browser.ts';
export { readViewResource, type ViewResource } from './read-view-resource.ts';
export { runUnattachedViewRounds, type UnattachedViewRoundsOptions, type ViewStep } from './unattached-view-rounds.ts';
export { viewByteBudget, viewHtmlProblems } from './view-checks.ts';
export { type HostEvent, type OpenedView, startViewHost, type ViewHost, type ViewMount } from './view-host.ts';
export {
  readViewRenderTimes,
  type ViewMarks,
  type ViewRenderTimes,
  viewRenderTimesFromMarks,
  waitForViewFrame,
} from './view-render-times.ts';
export { viewScreenshotPath } from './view-screenshots.ts';
export { createViewTimeReport, median, medianAndSpread, type ViewTimeReport } from './view-time-report.ts';
