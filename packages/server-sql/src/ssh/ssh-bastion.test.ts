import { expect, it } from 'vitest';
import { describeSshBastion, parseSshBastion } from './ssh-bastion.ts';

it.each([
  ['tunnel@bastion.example.com', { user: 'tunnel', host: 'bastion.example.com', port: 22 }],
  ['tunnel@10.0.0.1:2222', { user: 'tunnel', host: '10.0.0.1', port: 2222 }],
  ['tunnel@[2001:db8::1]:2222', { user: 'tunnel', host: '2001:db8::1', port: 2222 }],
  ['first.last@bastion', { user: 'first.last', host: 'bastion', port: 22 }],
])('reads %s', (spec, bastion) => {
  expect(parseSshBastion('app', spec)).toEqual(bastion);
});

it.each([
  ['bastion.example.com'],
  ['@bastion'],
  ['tunnel@'],
  ['tunnel@bastion:0'],
  ['tunnel@bastion:65536'],
  ['tunnel@bastion:port'],
  ['tunnel@2001:db8::1'],
])('refuses %s', (spec) => {
  expect(() => parseSshBastion('app', spec)).toThrow(/USER@HOST or USER@HOST:PORT/);
});

it('refuses a password without repeating it', () => {
  expect(() => parseSshBastion('app', 'tunnel:s3cr3t@bastion')).toThrow(
    /a password cannot be given on the command line/,
  );
  expect(() => parseSshBastion('app', 'tunnel:s3cr3t@bastion')).not.toThrow(/s3cr3t/);
});

it('writes IPv6 hosts in brackets', () => {
  expect(describeSshBastion({ user: 'tunnel', host: '2001:db8::1', port: 22 })).toBe('tunnel@[2001:db8::1]:22');
});
