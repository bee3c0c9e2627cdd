import { expect, test } from 'vitest';
import { prefixImage } from '../../../src/api/image';

test.each([
  ['/media/posters/f1.jpg', '/producer/media/posters/f1.jpg'],
  ['media/posters/f1.jpg', '/producer/media/posters/f1.jpg'],
  ['/producer/media/a.jpg', '/producer/media/a.jpg'],
  ['https://cdn.example.org/a.jpg', 'https://cdn.example.org/a.jpg'],
  ['http://cdn.example.org/a.jpg', 'http://cdn.example.org/a.jpg'],
  ['//cdn.example.org/a.jpg', '//cdn.example.org/a.jpg'],
  ['data:image/png;base64,AAAA', 'data:image/png;base64,AAAA'],
  ['blob:http://localhost/1234', 'blob:http://localhost/1234'],
  ['', ''],
])('prefixImage(%j) → %j', (input, expected) => {
  expect(prefixImage(input)).toBe(expected);
});
