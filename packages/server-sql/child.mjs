process.on('message', (m) => process.send({ id: m.id, json: '[[1,"abc",3.5]]' }));
