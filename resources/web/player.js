// topocast's web player: plays one scenario's schedule from the data the page carries
// (#topocast-data, written by `topocast-cli html` or File ▸ Export ▸ Web page). Everything it shows
// is computed by topocast; this only draws it. Texts from the scenario go in with textContent,
// never as HTML.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('topocast-data').textContent);
  var el = function (id) { return document.getElementById(id); };
  var nodeCount = data.names.length;
  var stepCount = data.steps;
  var colour = function (hex) { return new THREE.Color(hex); };
  var C = {};
  Object.keys(data.colours).forEach(function (k) { C[k] = colour(data.colours[k]); });

  // ---- what each step does, from the transfers ------------------------------------------------
  var edgeOf = {};  // "a-b" (a < b) → edge index
  for (var e = 0; e < data.edgeNodes.length / 2; ++e) {
    var a = data.edgeNodes[2 * e], b = data.edgeNodes[2 * e + 1];
    edgeOf[Math.min(a, b) + '-' + Math.max(a, b)] = e;
  }
  var byStep = [];      // step → transfers
  var firstUse = [];    // edge → first step it carries a message (0: never)
  for (var s = 0; s <= stepCount; ++s) byStep.push([]);
  data.transfers.forEach(function (t) {
    byStep[t[0]].push(t);
    var path = t[3];
    for (var i = 0; i + 1 < path.length; ++i) {
      var k = edgeOf[Math.min(path[i], path[i + 1]) + '-' + Math.max(path[i], path[i + 1])];
      if (k !== undefined && (!firstUse[k] || firstUse[k] > t[0])) firstUse[k] = t[0];
    }
  });

  function holders(step) {
    var n = 0;
    for (var v = 0; v < nodeCount; ++v) if (data.informed[v] >= 0 && data.informed[v] <= step) ++n;
    return n;
  }

  // ---- the scene ----------------------------------------------------------------------------------
  var view = el('view');
  var renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.appendChild(renderer.domElement);
  var scene = new THREE.Scene();
  scene.background = C.background;
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  var sun = new THREE.DirectionalLight(0xffffff, 0.6);
  sun.position.set(1, 2, 3);
  scene.add(sun);

  var cam = data.camera;
  var camera = new THREE.PerspectiveCamera(cam.fov, 16 / 9, 0.01, 1000);
  camera.position.set(cam.eye[0], cam.eye[1], cam.eye[2]);
  var controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.target.set(cam.centre[0], cam.centre[1], cam.centre[2]);
  controls.enableDamping = false;
  controls.update();

  // Nodes: one merged mesh of low-poly spheres, coloured per vertex (one draw call).
  var sphere = new THREE.SphereBufferGeometry(data.radius, 12, 8);
  var perNode = sphere.attributes.position.count;
  var perIndex = sphere.index.count;
  var positions = new Float32Array(nodeCount * perNode * 3);
  var normals = new Float32Array(nodeCount * perNode * 3);
  var nodeColours = new Float32Array(nodeCount * perNode * 3);
  var indices = new Uint32Array(nodeCount * perIndex);
  for (var v = 0; v < nodeCount; ++v) {
    var px = data.pos[3 * v], py = data.pos[3 * v + 1], pz = data.pos[3 * v + 2];
    for (var j = 0; j < perNode; ++j) {
      var o = 3 * (v * perNode + j);
      positions[o] = sphere.attributes.position.getX(j) + px;
      positions[o + 1] = sphere.attributes.position.getY(j) + py;
      positions[o + 2] = sphere.attributes.position.getZ(j) + pz;
      normals[o] = sphere.attributes.normal.getX(j);
      normals[o + 1] = sphere.attributes.normal.getY(j);
      normals[o + 2] = sphere.attributes.normal.getZ(j);
    }
    for (var q = 0; q < perIndex; ++q) indices[v * perIndex + q] = sphere.index.getX(q) + v * perNode;
  }
  var nodeGeometry = new THREE.BufferGeometry();
  nodeGeometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  nodeGeometry.setAttribute('normal', new THREE.BufferAttribute(normals, 3));
  nodeGeometry.setAttribute('color', new THREE.BufferAttribute(nodeColours, 3));
  nodeGeometry.setIndex(new THREE.BufferAttribute(indices, 1));
  var nodeMesh = new THREE.Mesh(nodeGeometry, new THREE.MeshLambertMaterial({ vertexColors: THREE.VertexColors }));
  scene.add(nodeMesh);

  // Links: line segments along each link's polyline (wrap links as arcs), coloured per vertex.
  var segs = [];
  var segEdge = [];
  data.edges.forEach(function (pts, k) {
    for (var i = 0; i + 5 < pts.length; i += 3) {
      segs.push(pts[i], pts[i + 1], pts[i + 2], pts[i + 3], pts[i + 4], pts[i + 5]);
      segEdge.push(k);
    }
  });
  var linkGeometry = new THREE.BufferGeometry();
  linkGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(segs), 3));
  var linkColours = new Float32Array(segs.length);
  linkGeometry.setAttribute('color', new THREE.BufferAttribute(linkColours, 3));
  scene.add(new THREE.LineSegments(linkGeometry, new THREE.LineBasicMaterial({ vertexColors: THREE.VertexColors })));

  // Messages in flight while playing: white dots that travel each transfer's route.
  var dotCanvas = document.createElement('canvas');
  dotCanvas.width = dotCanvas.height = 64;
  var g = dotCanvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.beginPath();
  g.arc(32, 32, 28, 0, 2 * Math.PI);
  g.fill();
  var dotGeometry = new THREE.BufferGeometry();
  var maxDots = 1;
  byStep.forEach(function (ts) { maxDots = Math.max(maxDots, ts.length); });
  dotGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * maxDots), 3));
  var dots = new THREE.Points(dotGeometry, new THREE.PointsMaterial({
    color: C.message, size: data.radius * 1.6, map: new THREE.CanvasTexture(dotCanvas), transparent: true,
    alphaTest: 0.5, sizeAttenuation: true }));
  dots.visible = false;
  scene.add(dots);

  // ---- state --------------------------------------------------------------------------------------
  var step = 0;
  var playing = false;
  var fraction = 0;
  var last = 0;
  var secondsPerStep = 1.5;

  function paint(k) {
    var receiving = {};
    byStep[k].forEach(function (t) { receiving[t[2]] = true; });
    var graded = predict.graded && predict.graded.step === k ? predict.graded : null;
    for (var v = 0; v < nodeCount; ++v) {
      var c;
      if (predict.on && !graded && predict.marks[v]) c = P.marked;
      else if (graded && graded.right[v]) c = P.right;
      else if (graded && graded.missed[v]) c = P.missed;
      else if (graded && graded.wrong[v]) c = P.wrong;
      else if (v === data.source || data.informed[v] === 0 && data.source >= 0) c = C.source;
      else if (receiving[v]) c = C.receiving;
      else if (data.informed[v] >= 0 && data.informed[v] < k) c = C.informed;
      else c = C.uninformed;
      for (var j = 0; j < perNode; ++j) c.toArray(nodeColours, 3 * (v * perNode + j));
    }
    nodeGeometry.attributes.color.needsUpdate = true;
    for (var i = 0; i < segEdge.length; ++i) {
      var f = firstUse[segEdge[i]];
      var lc = inStep[k][segEdge[i]] ? C.inFlight : f && f < k ? C.linkUsed : C.link;
      lc.toArray(linkColours, 6 * i);
      lc.toArray(linkColours, 6 * i + 3);
    }
    linkGeometry.attributes.color.needsUpdate = true;
  }

  // The edges each step's transfers use.
  var inStep = byStep.map(function (ts) {
    var set = {};
    ts.forEach(function (t) {
      for (var i = 0; i + 1 < t[3].length; ++i) {
        var k = edgeOf[Math.min(t[3][i], t[3][i + 1]) + '-' + Math.max(t[3][i], t[3][i + 1])];
        if (k !== undefined) set[k] = true;
      }
    });
    return set;
  });

  function placeDots(k, f) {
    var arr = dotGeometry.attributes.position.array;
    var ts = byStep[k];
    for (var i = 0; i < ts.length; ++i) {
      var path = ts[i][3];
      var hops = path.length - 1;
      var at = Math.min(hops - 1e-6, Math.max(0, f * hops));
      var h = Math.floor(at), r = at - h;
      var a = path[h], b = path[Math.min(h + 1, hops)];
      for (var d = 0; d < 3; ++d) arr[3 * i + d] = data.pos[3 * a + d] * (1 - r) + data.pos[3 * b + d] * r;
    }
    dotGeometry.setDrawRange(0, ts.length);
    dotGeometry.attributes.position.needsUpdate = true;
  }

  // ---- predict mode: guess the next step's receivers, then check ----------------------------------
  var P = { marked: colour('#ffffff'), right: colour('#1ad9b3'), missed: colour('#d55e00'), wrong: colour('#f259d9') };
  var predict = { on: false, marks: {}, graded: null, right: 0, missed: 0, wrong: 0, steps: 0 };
  var nameIndex = {};
  data.names.forEach(function (n, v) { nameIndex[n.replace(/\s+/g, '')] = v; });

  function receiversOf(k) {
    var r = {};
    (byStep[k] || []).forEach(function (t) { r[t[2]] = true; });
    return r;
  }
  function namesOf(set) {
    var out = [];
    Object.keys(set).forEach(function (v) { out.push(data.names[v]); });
    return out.length ? out.join(' ') : 'none';
  }
  function marksText() {
    return Object.keys(predict.marks).map(function (v) { return data.names[v]; }).join(' ');
  }
  // "(5,2) (1,5)", "(5,2);(1,5)" or hypercube addresses "0101 0011": the node of each name.
  function parseGuess(text) {
    var marks = {};
    var tokens = text.match(/\([^()]*\)|[^\s;()]+/g) || [];
    for (var i = 0; i < tokens.length; ++i) {
      var v = nameIndex[tokens[i].replace(/\s+/g, '')];
      if (v === undefined) return { error: tokens[i] + ' is not a node of this network (names look like ' + data.names[nodeCount - 1] + ')' };
      marks[v] = true;
    }
    return { marks: marks };
  }
  function updatePredictPanel() {
    el('predict').setAttribute('aria-pressed', predict.on ? 'true' : 'false');
    el('predict-panel').hidden = !predict.on;
    el('predict-step').textContent = String(Math.min(step + 1, stepCount));
    el('score').textContent = 'Score: ' + predict.right + ' right, ' + predict.missed + ' missed, ' + predict.wrong +
      ' wrong over ' + predict.steps + (predict.steps === 1 ? ' step' : ' steps');
  }
  function setPredict(on) {
    predict.on = on;
    document.body.classList.toggle('predicting', on);
    predict.marks = {};
    predict.graded = null;
    el('guess').value = '';
    el('verdict').textContent = on ? (step < stepCount ? 'Which nodes receive in step ' + (step + 1) +
      '? Click them (or type their names), then Check.' : 'This is the last step: go back to start predicting.') : '';
    if (on) setPlaying(false);
    updatePredictPanel();
    paint(step);
  }
  function checkGuess() {
    if (!predict.on || step >= stepCount) return;
    var parsed = parseGuess(el('guess').value);
    if (parsed.error) { el('verdict').textContent = parsed.error; return; }
    var next = step + 1;
    var receivers = receiversOf(next);
    var g = { step: next, right: {}, missed: {}, wrong: {} };
    Object.keys(receivers).forEach(function (v) { (parsed.marks[v] ? g.right : g.missed)[v] = true; });
    Object.keys(parsed.marks).forEach(function (v) { if (!receivers[v]) g.wrong[v] = true; });
    var n = function (set) { return Object.keys(set).length; };
    predict.right += n(g.right);
    predict.missed += n(g.missed);
    predict.wrong += n(g.wrong);
    predict.steps += 1;
    predict.graded = g;
    predict.marks = {};
    el('guess').value = '';
    show(next);
    el('verdict').textContent = 'Step ' + next + ': ' + n(g.right) + ' right, ' + n(g.missed) + ' missed (' +
      namesOf(g.missed) + '), ' + n(g.wrong) + ' wrong (' + namesOf(g.wrong) + ').' +
      (next < stepCount ? ' Now guess step ' + (next + 1) + '.' : ' That was the last step.');
    updatePredictPanel();
  }
  el('predict').addEventListener('click', function () { setPredict(!predict.on); });
  el('check').addEventListener('click', checkGuess);
  el('guess').addEventListener('input', function () {
    var parsed = parseGuess(el('guess').value);
    if (!parsed.error) { predict.marks = parsed.marks; paint(step); }
  });
  el('guess').addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') { ev.preventDefault(); checkGuess(); }
  });

  function show(k) {
    step = Math.max(0, Math.min(stepCount, k));
    paint(step);
    el('step-counter').textContent = 'Step ' + step + ' of ' + stepCount;
    el('holders').textContent = holders(step) + ' of ' + nodeCount + ' nodes hold the data';
    el('narration').textContent = data.narration[step] || '';
    el('slider').value = String(step);
    if (predict.on) {
      el('predict-step').textContent = String(Math.min(step + 1, stepCount));
      if (!predict.graded || predict.graded.step !== step) el('verdict').textContent = step < stepCount ?
        'Which nodes receive in step ' + (step + 1) + '? Click them (or type their names), then Check.' : '';
    }
    document.body.setAttribute('data-step', String(step));
    if (history.replaceState) history.replaceState(null, '', '#step=' + step);
  }

  function setPlaying(on) {
    playing = on && stepCount > 0;
    el('play').textContent = playing ? 'Pause' : 'Play';
    el('play').setAttribute('aria-pressed', playing ? 'true' : 'false');
    if (!playing) dots.visible = false;
    last = performance.now();
  }

  el('first').addEventListener('click', function () { setPlaying(false); show(0); });
  el('back').addEventListener('click', function () { setPlaying(false); show(step - 1); });
  el('forward').addEventListener('click', function () { setPlaying(false); show(step + 1); });
  el('last').addEventListener('click', function () { setPlaying(false); show(stepCount); });
  el('play').addEventListener('click', function () {
    if (predict.on) { el('verdict').textContent = 'Predict mode: Check your guess to see the next step (or leave predict mode to play).'; return; }
    if (!playing && step >= stepCount) show(0);
    setPlaying(!playing);
  });
  el('slider').max = String(stepCount);
  el('slider').addEventListener('input', function () { setPlaying(false); show(parseInt(el('slider').value, 10)); });
  document.addEventListener('keydown', function (ev) {
    if (ev.target && ev.target.tagName === 'INPUT' && ev.target.type !== 'range') return;
    if (ev.key === 'p' || ev.key === 'P') { setPredict(!predict.on); return; }
    if (ev.key === 'Enter' && predict.on) { ev.preventDefault(); checkGuess(); return; }
    if (ev.key === ' ') { ev.preventDefault(); el('play').click(); }
    else if (ev.key === 'ArrowRight') { setPlaying(false); show(step + 1); }
    else if (ev.key === 'ArrowLeft') { setPlaying(false); show(step - 1); }
    else if (ev.key === 'Home') { setPlaying(false); show(0); }
    else if (ev.key === 'End') { setPlaying(false); show(stepCount); }
  });

  // ---- hover: a node's name and state -------------------------------------------------------------
  var ray = new THREE.Raycaster();
  var mouse = new THREE.Vector2();
  renderer.domElement.addEventListener('mousemove', function (ev) {
    var r = renderer.domElement.getBoundingClientRect();
    mouse.x = ((ev.clientX - r.left) / r.width) * 2 - 1;
    mouse.y = -((ev.clientY - r.top) / r.height) * 2 + 1;
    ray.setFromCamera(mouse, camera);
    var hit = ray.intersectObject(nodeMesh)[0];
    var tip = el('tip');
    if (!hit) { tip.hidden = true; return; }
    var v = Math.floor(hit.face.a / perNode);
    var state;
    if (v === data.source) state = 'the source';
    else if (data.informed[v] < 0) state = 'never receives';
    else if (data.informed[v] === step) state = 'receives in this step';
    else if (data.informed[v] < step) state = 'holds the data since step ' + data.informed[v];
    else state = 'receives in step ' + data.informed[v];
    tip.textContent = data.names[v] + ': ' + state;
    tip.style.left = (ev.clientX - r.left + 14) + 'px';
    tip.style.top = (ev.clientY - r.top + 14) + 'px';
    tip.hidden = false;
  });
  renderer.domElement.addEventListener('mouseleave', function () { el('tip').hidden = true; });
  var down = null;
  renderer.domElement.addEventListener('mousedown', function (ev) { down = [ev.clientX, ev.clientY]; });
  renderer.domElement.addEventListener('click', function (ev) {
    if (!predict.on || !down || Math.abs(ev.clientX - down[0]) + Math.abs(ev.clientY - down[1]) > 4) return;
    var r = renderer.domElement.getBoundingClientRect();
    mouse.x = ((ev.clientX - r.left) / r.width) * 2 - 1;
    mouse.y = -((ev.clientY - r.top) / r.height) * 2 + 1;
    ray.setFromCamera(mouse, camera);
    var hit = ray.intersectObject(nodeMesh)[0];
    if (!hit) return;
    var v = Math.floor(hit.face.a / perNode);
    if (predict.graded && predict.graded.step === step) predict.graded = null;
    if (predict.marks[v]) delete predict.marks[v]; else predict.marks[v] = true;
    el('guess').value = marksText();
    paint(step);
  });

  // ---- layout and the frame loop ----------------------------------------------------------------
  function resize() {
    var w = view.clientWidth, h = Math.max(240, view.clientHeight);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);

  function frame(now) {
    if (playing) {
      fraction += (now - last) / 1000 / secondsPerStep;
      last = now;
      if (fraction >= 1) {
        fraction = 0;
        if (step >= stepCount) setPlaying(false);
        else show(step + 1);
      }
      if (playing && step < stepCount) {
        placeDots(step + 1, fraction);
        dots.visible = true;
      }
    }
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  }

  // ---- texts ----------------------------------------------------------------------------------------
  el('title').textContent = data.title;
  document.title = data.title + ' — topocast';
  el('description').textContent = data.description;
  el('facts').textContent = data.facts;
  var legend = el('legend');
  data.legend.forEach(function (entry) {
    var li = document.createElement('li');
    var sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = entry[0];
    li.appendChild(sw);
    li.appendChild(document.createTextNode(entry[1]));
    legend.appendChild(li);
  });

  [['#ffffff', 'predict: your guess'], ['#1ad9b3', 'predict: right'], ['#d55e00', 'predict: missed'],
    ['#f259d9', 'predict: wrong']].forEach(function (entry) {
    var li = document.createElement('li');
    li.className = 'predict-only';
    var sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = entry[0];
    li.appendChild(sw);
    li.appendChild(document.createTextNode(entry[1]));
    legend.appendChild(li);
  });
  updatePredictPanel();

  var m = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
  resize();
  show(m ? parseInt(m[1], 10) : 0);
  renderer.render(scene, camera);
  document.body.setAttribute('data-ready', 'true');
  requestAnimationFrame(frame);
})();
