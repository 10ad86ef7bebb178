#!/usr/bin/env node
// cloudlock's launcher for @vercel/cosmosdb-server: a Cosmos DB (NoSQL API) server for the tests, on 127.0.0.1 only,
// serving TLS with the certificate the tests generate, with four gaps of the package closed.
//
//   node cosmos-launcher.js --port PORT --pfx server.p12 --passphrase SECRET [--without FIX[,FIX...]]
//
// Fixes (each can be turned off with --without, so a test can show the symptom it closes):
//   missing-item-404  a point read of a missing item answers 404 NotFound (the package answers 500)
//   patch-filter-case conditional-patch filter predicates keep their case (the package lower-cases the whole
//                     predicate, literals included, so c.lockUntil becomes the never-defined c.lockuntil: a plain
//                     comparison never matches and NOT IS_DEFINED(...) always does)
//   query-plan        the SDK's query-plan request gets a pass-through plan over the single partition key range
//                     ["", "FF") (the package runs it as a query and returns documents, which the SDK cannot parse),
//                     and the query the SDK then sends to range "0" runs over every item
//   partition-filter  a single-partition query sees only the items of its partition key (the package ignores it)
//
// The port also answers plain HTTP (told apart from TLS by the first byte of a connection), for the test harness:
//   GET /               200, once the server is ready
//   GET /cloudlock/requests  {"total": N, "byKind": {"PATCH item": n, ...}}: requests served over TLS so far
'use strict';

const fs = require('fs');
const path = require('path');

const FIXES = ['missing-item-404', 'patch-filter-case', 'query-plan', 'partition-filter'];

function parseArgs(argv) {
  const options = { without: new Set() };
  for (let i = 0; i < argv.length; i += 1) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--port': options.port = Number.parseInt(value, 10); i += 1; break;
      case '--pfx': options.pfx = value; i += 1; break;
      case '--passphrase': options.passphrase = value; i += 1; break;
      case '--without':
        value.split(',').filter(Boolean).forEach(fix => {
          if (!FIXES.includes(fix)) {
            throw new Error(`Unknown fix '${fix}'; known: ${FIXES.join(', ')}`);
          }
          options.without.add(fix);
        });
        i += 1;
        break;
      default: throw new Error(`Unknown argument '${argv[i]}'`);
    }
  }
  if (!Number.isInteger(options.port) || !options.pfx) {
    throw new Error('Usage: cosmos-launcher.js --port PORT --pfx FILE [--passphrase SECRET] [--without FIX,...]');
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const enabled = fix => !options.without.has(fix);

const lib = path.join(__dirname, 'node_modules', '@vercel', 'cosmosdb-server', 'lib');
const load = name => require(path.join(lib, name));
const query = require(path.join(__dirname, 'node_modules', '@zeit', 'cosmosdb-query')).default;
const readJson = load('json').default;
const readItems = load('handler/_read-items').default;
const isTrue = load('true-header').default;
const partitionHeader = load('utils/get-partition-from-header');
const { patchOperation } = load('handler/_patch-operations');
const getValue = load('utils/get-value').default;

const notFound = res => {
  res.statusCode = 404;
  return { code: 'NotFound', message: 'Entity with the specified id does not exist in the system.' };
};

// The package's route table reads each handler module's `default` when it is first loaded, so handlers replaced
// here (before the package's index is loaded) are the ones it routes to.
function replaceHandler(name, makeHandler) {
  const module = load(`handler/${name}`);
  module.default = makeHandler(module.default);
}

/** The partition key value of a request, or undefined when it names none. */
function requestPartitionKey(req, fallback) {
  const header = partitionHeader.default(req);
  return header === undefined ? fallback : partitionHeader.parsePartitionKey(header, fallback);
}

if (enabled('missing-item-404')) {
  replaceHandler('read-document', original => (account, req, res, params) => {
    const collection = account.database(params.dbId).collection(params.collId);
    if (collection.read() && !collection.document(params.docId, requestPartitionKey(req, params.docId)).read()) {
      return notFound(res);
    }
    return original(account, req, res, params);
  });
}

// A conditional patch: 404 for a missing item, 412 for a stale If-Match or an unmet filter predicate, else the
// package's own patch. Everything after the body is read runs synchronously, so it is atomic on Node's one thread.
if (enabled('patch-filter-case')) {
  replaceHandler('patch-document', () => async (account, req, res, { dbId, collId, docId }) => {
    const body = await readJson(req);
    const operations = Array.isArray(body) ? body : body.operations;
    const condition = Array.isArray(body) ? undefined : body.condition;
    if (!Array.isArray(operations)) {
      res.statusCode = 400;
      return { code: 'BadRequest', message: 'Invalid patch request: no operations.' };
    }
    const collection = account.database(dbId).collection(collId);
    if (!collection.read()) {
      return notFound(res);
    }
    const partitionKey = partitionHeader.default(req);
    const input = { id: docId, partitionKey, ifMatch: req.headers['if-match'], operations, condition };
    if (condition) {
      const item = collection.document(docId, partitionHeader.parsePartitionKey(partitionKey, docId)).read();
      if (!item) {
        return notFound(res);
      }
      if (input.ifMatch && input.ifMatch !== item._etag) {
        res.statusCode = 412;
        return { code: 'PreconditionFailed', message: 'The If-Match ETag is not the item\'s current ETag.' };
      }
      let matches;
      try {
        matches = conditionHolds(condition, item);
      } catch (err) {
        res.statusCode = 400;
        return { code: 'BadRequest', message: `Invalid filter predicate '${condition}': ${err.message}` };
      }
      if (!matches) {
        res.statusCode = 412;
        return { code: 'PreconditionFailed', message: 'The filter predicate of the patch request is not satisfied.' };
      }
      input.condition = undefined; // checked here, on exactly this item, with its case intact
    }
    const result = patchOperation(collection, input);
    res.statusCode = result.statusCode;
    return result.body;
  });
}

/** Evaluates a patch filter predicate ("FROM c WHERE ...", any alias, any case of the keywords) on one item. */
function conditionHolds(condition, item) {
  const match = /^\s*from\s+([A-Za-z_][A-Za-z0-9_]*)\s+where\s+([\s\S]+)$/i.exec(condition);
  if (!match) {
    throw new Error("expected 'FROM <alias> WHERE <condition>'");
  }
  const [, alias, where] = match;
  return query(`SELECT * FROM ${alias} WHERE ${where}`).exec([item]).result.length === 1;
}

if (enabled('query-plan') || enabled('partition-filter')) {
  replaceHandler('query-documents', original => async (account, req, res, params) => {
    if (enabled('query-plan') && isTrue(req, 'x-ms-cosmos-is-query-plan-request')) {
      const spec = await readJson(req);
      return passThroughPlan(spec.query);
    }
    const partitionKey = requestPartitionKey(req, undefined);
    const crossPartition = isTrue(req, 'x-ms-documentdb-query-enablecrosspartition');
    // After a pass-through plan the SDK sends the query to the one range "0", naming no partition key.
    const wholeRange = enabled('query-plan') && partitionKey === undefined
      && req.headers['x-ms-documentdb-partitionkeyrangeid'] !== undefined;
    const onePartition = enabled('partition-filter') && partitionKey !== undefined && !crossPartition;
    if (!wholeRange && !onePartition) {
      return original(account, req, res, params);
    }
    return readItems(req, res, 'Documents', async ({ continuation, maxItemCount }) => {
      const spec = await readJson(req);
      const collection = account.database(params.dbId).collection(params.collId);
      const definition = collection.read();
      if (!definition) {
        return null;
      }
      const keyPath = ((definition.partitionKey || {}).paths || ['/id'])[0].slice(1).split('/');
      const items = collection.documents.read().result
        .filter(item => wholeRange || getValue(keyPath, item) === partitionKey);
      return query(spec.query).exec(items, { parameters: spec.parameters, continuation, maxItemCount });
    });
  });
}

/** A query plan that tells the SDK to send the query unchanged to the one partition key range, ["", "FF"). */
function passThroughPlan(rewrittenQuery) {
  return {
    partitionedQueryExecutionInfoVersion: 2,
    queryInfo: {
      distinctType: 'None',
      top: null,
      offset: null,
      limit: null,
      orderBy: [],
      orderByExpressions: [],
      groupByExpressions: [],
      groupByAliases: [],
      aggregates: [],
      groupByAliasToAggregateType: {},
      rewrittenQuery: '',
      hasSelectValue: false,
      dCountInfo: null,
    },
    queryRanges: [{ min: '', max: 'FF', isMinInclusive: true, isMaxInclusive: false }],
    originalQuery: rewrittenQuery,
  };
}

const { createHttpsServer } = require(path.join(lib, 'index'));

const server = createHttpsServer({
  pfx: fs.readFileSync(options.pfx),
  passphrase: options.passphrase,
  keepAlive: true,
});

const counts = { total: 0, byKind: {} };
server.on('request', req => {
  const { pathname } = new URL(req.url, 'https://localhost');
  const segments = pathname.split('/').filter(Boolean);
  const resource = segments.length % 2 === 0 ? 'item' : 'feed';
  const kind = `${req.method} ${segments[segments.length - (resource === 'item' ? 2 : 1)] || 'account'} ${resource}`;
  counts.total += 1;
  counts.byKind[kind] = (counts.byKind[kind] || 0) + 1;
});

// One port, two protocols: a TLS handshake starts with byte 0x16; anything else is the harness's plain HTTP.
const [tlsConnection] = server.listeners('connection');
server.removeAllListeners('connection');
server.on('connection', socket => {
  socket.on('error', () => socket.destroy());
  socket.once('readable', function sniff() {
    const head = socket.read();
    if (head === null) {
      socket.once('readable', sniff);
      return;
    }
    socket.unshift(head);
    if (head[0] === 0x16) {
      tlsConnection.call(server, socket);
    } else {
      answerHarness(socket);
    }
  });
});

function answerHarness(socket) {
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', chunk => {
    text += chunk;
    if (!text.includes('\r\n\r\n')) {
      return;
    }
    socket.removeAllListeners('data');
    const [method, target] = text.split(' ', 2);
    let status = 200;
    let body = 'ok';
    if (method === 'GET' && target === '/cloudlock/requests') {
      body = JSON.stringify(counts);
    } else if (!(method === 'GET' && target === '/')) {
      status = 404;
      body = 'unknown harness request';
    }
    socket.end(`HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Not Found'}\r\ncontent-type: text/plain\r\n`
      + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}

server.listen(options.port, '127.0.0.1', () => {
  const disabled = [...options.without];
  // eslint-disable-next-line no-console
  console.log(`cosmos-launcher: https://127.0.0.1:${options.port}`
    + (disabled.length ? ` with fixes off: ${disabled.join(', ')}` : ' with all fixes on'));
});
