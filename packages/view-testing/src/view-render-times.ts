import type { Frame, Page } from 'playwright-core';

/**
 * When a view's first rows were on screen, read from the view frame's own
 * `performance` timeline, in ms. The view marks `result-received` when the
 * tool result reaches it and `rows-rendered` in the first animation frame
 * with rows (before that frame's layout and paint) and `rows-painted` in the
 * task after that frame (laid out and painted); the shared view runtime
 * marks each step of the handshake (`mcp-view:initialize` sent,
 * `mcp-view:initialized` answered). A frame without those marks (the
 * benches' empty floor frame) has no phases.
 */
export interface ViewRenderTimes {
  /** The frame's time origin (its navigation's start) to `rows-rendered`. */
  mountToRows: number;
  /** `result-received` to `rows-rendered`: the view's own work. */
  resultToRows: number;
  /** The frame's time origin to `rows-painted`: mount to rows with that frame's layout and paint. */
  mountToPaint: number;
  /**
   * Mount to rows in four parts that add up to it, when the view runs the
   * shared runtime: `start` (the document fetched and parsed, the scripts
   * run, `ui/initialize` sent), `handshake` (the host's answer),
   * `delivery` (`initialized` sent to the result received) and `render`.
   */
  phases: { start: number; handshake: number; delivery: number; render: number } | undefined;
  /** When the host created the frame (its `view-mount` mark) to `rows-rendered`, if the host marked it. */
  hostMountToRows: number | undefined;
  /** `rows-rendered` on the epoch (`performance.timeOrigin + startTime`), to compare with another timeline. */
  rowsRenderedAt: number;
}

/** The view's frame on `page`: the first subframe `isView` accepts (by its URL, say), waiting for it to appear. */
export async function waitForViewFrame(page: Page, isView: (frame: Frame) => boolean = () => true): Promise<Frame> {
  for (;;) {
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame() && isView(candidate));
    if (frame !== undefined) return frame;
    await page.waitForEvent('framenavigated');
  }
}

/** A view frame's marks as read from its timeline, in ms from its time origin (the epoch ms of its navigation). */
export interface ViewMarks {
  origin: number;
  rendered: number;
  painted: number;
  received: number;
  initialize: number | undefined;
  initialized: number | undefined;
}

/**
 * Waits for the view in `frame` to mark `rows-painted` and reads its times;
 * with `page`, also the host page's last `view-mount` mark. The frame and
 * its host are different timelines (often different processes): both are
 * put on the epoch (`performance.timeOrigin + startTime`) to compare them.
 */
export async function readViewRenderTimes(
  frame: Frame,
  options: { timeoutMs?: number; page?: Page } = {},
): Promise<ViewRenderTimes> {
  const handle = await frame.waitForFunction(
    () => {
      const at = (name: string) => performance.getEntriesByName(name, 'mark')[0]?.startTime;
      const rendered = at('rows-rendered');
      const received = at('result-received');
      const painted = at('rows-painted');
      if (rendered === undefined || received === undefined || painted === undefined) return undefined;
      return {
        origin: performance.timeOrigin,
        rendered,
        painted,
        received,
        initialize: at('mcp-view:initialize'),
        initialized: at('mcp-view:initialized'),
      };
    },
    null,
    { timeout: options.timeoutMs ?? 20_000 },
  );
  const marks = (await handle.jsonValue()) as ViewMarks;
  const hostMount =
    options.page === undefined
      ? undefined
      : await options.page.evaluate(() => {
          const mark = performance.getEntriesByName('view-mount', 'mark').at(-1);
          return mark === undefined ? undefined : performance.timeOrigin + mark.startTime;
        });
  return viewRenderTimesFromMarks(marks, hostMount);
}

/** A view's times from its frame's marks and, when the host marked it, the host's `view-mount` on the epoch. */
export function viewRenderTimesFromMarks(marks: ViewMarks, hostMount: number | undefined): ViewRenderTimes {
  return {
    mountToRows: marks.rendered,
    resultToRows: marks.rendered - marks.received,
    mountToPaint: marks.painted,
    phases:
      marks.initialize === undefined || marks.initialized === undefined
        ? undefined
        : {
            start: marks.initialize,
            handshake: marks.initialized - marks.initialize,
            delivery: marks.received - marks.initialized,
            render: marks.rendered - marks.received,
          },
    hostMountToRows: hostMount === undefined ? undefined : marks.origin + marks.rendered - hostMount,
    rowsRenderedAt: marks.origin + marks.rendered,
  };
}
