// The machine's ceiling: a bare node:http server answering a fixed ~200-byte JSON body.
import { createServer } from 'node:http';
import { REFERENCE_ANSWER } from './reference-answer.mjs';

const body = JSON.stringify(REFERENCE_ANSWER);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
