import { defineResource, defineResourceTemplate, type Resource, type ResourceTemplate } from '@toolshed/mcp-core';
import { redPixelPng } from './fixture-media.ts';

export const fixtureResources: readonly Resource[] = [
  defineResource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  }),
  defineResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    read: () => Buffer.from(redPixelPng, 'base64'),
  }),
  defineResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
    read: () => 'Watched resource content',
  }),
];

export const fixtureResourceTemplates: readonly ResourceTemplate[] = [
  defineResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
    complete: { id: ['1', '2', '3', '123'] },
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  }),
];
