export { bundleAppBridgeHost } from './bundle-app-bridge-host.ts';
export { chromiumBinary, chromiumService, launchChromium } from './chromium-browser.ts';
export { readViewResource, type ViewResource } from './read-view-resource.ts';
export { viewByteBudget, viewHtmlProblems } from './view-checks.ts';
export { type HostEvent, type OpenedView, startViewHost, type ViewHost, type ViewMount } from './view-host.ts';
export { viewScreenshotPath } from './view-screenshots.ts';
