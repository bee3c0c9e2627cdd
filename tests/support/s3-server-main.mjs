// A throw-away S3 server for tests (s3rver on 127.0.0.1, an ephemeral port, one bucket), in its own
// process so its logger never touches the test's. Prints {"port":N} once listening; exits when its
// standard input closes, so it never outlives the test that started it.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
