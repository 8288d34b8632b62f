import { optionsTableProblems } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { imageCli } from './image-cli.ts';

it('documents every option in the README, as the schema has it', () => {
  expect(optionsTableProblems(imageCli, new URL('../README.md', import.meta.url))).toEqual([]);
});

it('keeps every flag and environment variable name the bin has always had', () => {
  expect(imageCli.fields.map((field) => [field.flag, field.env])).toEqual([
    ['dir', 'TOOLSHED_IMAGE_DIRS'],
    ['output-dir', 'TOOLSHED_IMAGE_OUTPUT_DIR'],
    ['allow-urls', 'TOOLSHED_IMAGE_ALLOW_URLS'],
    ['trusted-host', 'TOOLSHED_IMAGE_TRUSTED_HOSTS'],
    ['dns-server', 'TOOLSHED_IMAGE_DNS_SERVERS'],
    ['ocr-languages-dir', 'TOOLSHED_IMAGE_OCR_LANGUAGES_DIR'],
    ['max-input-bytes', 'TOOLSHED_IMAGE_MAX_INPUT_BYTES'],
    ['max-input-pixels', 'TOOLSHED_IMAGE_MAX_INPUT_PIXELS'],
    ['max-frames', 'TOOLSHED_IMAGE_MAX_FRAMES'],
    ['max-output-edge', 'TOOLSHED_IMAGE_MAX_OUTPUT_EDGE'],
    ['preview-max-edge', 'TOOLSHED_IMAGE_PREVIEW_MAX_EDGE'],
    ['preview-max-bytes', 'TOOLSHED_IMAGE_PREVIEW_MAX_BYTES'],
    ['timeout-ms', 'TOOLSHED_IMAGE_TIMEOUT_MS'],
    ['max-concurrent', 'TOOLSHED_IMAGE_MAX_CONCURRENT'],
    ['max-queued', 'TOOLSHED_IMAGE_MAX_QUEUED'],
    ['url-timeout-ms', 'TOOLSHED_IMAGE_URL_TIMEOUT_MS'],
    ['max-redirects', 'TOOLSHED_IMAGE_MAX_REDIRECTS'],
    ['ocr-max-pixels', 'TOOLSHED_IMAGE_OCR_MAX_PIXELS'],
    ['ocr-timeout-ms', 'TOOLSHED_IMAGE_OCR_TIMEOUT_MS'],
  ]);
});
