// topocast's web player: plays a scenario's schedule — or a comparison's two, side by side on one
// timeline — from the data the page carries (#topocast-data, written by `topocast-cli html` or
// File ▸ Export ▸ Web page). Everything it shows is computed by topocast; this only draws it.
// Texts from the scenario go in with textContent, never as HTML.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('topocast-data').textContent);
  var el = function (id) { return document.getElementById(id); };
  var colour = function (hex) { return new THREE.Color(hex); };
  var C = {};
  Object.keys(data.colours).forEach(function (k) { C[k] = colour(data.colours[k]); });
  var P = { marked: colour('#ffffff'), right: colour('#1ad9b3'), missed: colour('#d55e00'), wrong: colour('#f259d9') };
  var stepCount = data.steps;
  var step = 0;
  var playing = false;
  var fraction = 0;
  var last = 0;
  var secondsPerStep = 1.5;
  // Predict mode (one side only): the marks of the step being guessed, the last graded step.
  var predict = { on: false, marks: {}, graded: null, right: 0, missed: 0, wrong: 0, steps: 0 };

  function edgeKey(a, b) { return Math.min(a, b) + '-' + Math.max(a, b); }

  // One side: its network, its schedule's steps, its view and texts. `suffix` names its elements
  // ("" for the first side: #narration, #holders; "-b" for the second).
  function Side(side, suffix, root) {
    var self = this;
    var nodeCount = side.names.length;
    this.side = side;
    this.nodeCount = nodeCount;

    var byStep = [];
    for (var s = 0; s <= side.steps; ++s) byStep.push([]);
    side.transfers.forEach(function (t) { byStep[t[0]].push(t); });
    this.byStep = byStep;

    // Texts and the view's box.
    var box = document.createElement('div');
    box.className = 'side';
    if (data.sides.length > 1) {
      var h = document.createElement('h2');
      h.textContent = side.heading;
      box.appendChild(h);
    }
    var view = document.createElement('div');
    view.className = 'view';
    view.id = 'view' + suffix;
    view.setAttribute('aria-label', 'the network in 3-D: drag to rotate, wheel to zoom, hover a node for its name and state');
    var tip = document.createElement('div');
    tip.className = 'tip';
    tip.hidden = true;
    view.appendChild(tip);
    box.appendChild(view);
    var narration = document.createElement('p');
    narration.className = 'narration';
    narration.id = 'narration' + suffix;
    narration.setAttribute('aria-live', 'polite');
    box.appendChild(narration);
    var holdersText = document.createElement('p');
    holdersText.id = 'holders' + suffix;
    box.appendChild(holdersText);
    root.appendChild(box);

    // The scene.
    var renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    view.appendChild(renderer.domElement);
    var scene = new THREE.Scene();
    scene.background = C.background;
    scene.add(new THREE.AmbientLight(0xffffff, 0.55));
    var sun = new THREE.DirectionalLight(0xffffff, 0.6);
    sun.position.set(1, 2, 3);
    scene.add(sun);
    var camera = new THREE.PerspectiveCamera(side.camera.fov, 16 / 9, 0.01, 1000);
    camera.position.fromArray(side.camera.eye);
    var controls = new THREE.OrbitControls(camera, renderer.domElement);
    controls.target.fromArray(side.camera.centre);
    controls.update();

    // Nodes: one merged mesh of low-poly spheres, coloured per vertex (one draw call).
    var sphere = new THREE.SphereBufferGeometry(side.radius, 12, 8);
    var perNode = sphere.attributes.position.count;
    var perIndex = sphere.index.count;
    var positions = new Float32Array(nodeCount * perNode * 3);
    var normals = new Float32Array(nodeCount * perNode * 3);
    var nodeColours = new Float32Array(nodeCount * perNode * 3);
    var indices = new Uint32Array(nodeCount * perIndex);
    for (var v = 0; v < nodeCount; ++v) {
      for (var j = 0; j < perNode; ++j) {
        var o = 3 * (v * perNode + j);
        positions[o] = sphere.attributes.position.getX(j) + side.pos[3 * v];
        positions[o + 1] = sphere.attributes.position.getY(j) + side.pos[3 * v + 1];
        positions[o + 2] = sphere.attributes.position.getZ(j) + side.pos[3 * v + 2];
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

    // Links: segments along each link's polyline (a torus's wrap links as arcs).
    var segs = [];
    var segEdge = [];
    side.edges.forEach(function (pts, k) {
      for (var i = 0; i + 5 < pts.length; i += 3) {
        segs.push(pts[i], pts[i + 1], pts[i + 2], pts[i + 3], pts[i + 4], pts[i + 5]);
        segEdge.push(k);
      }
    });
    // Wide lines (three.js's LineSegments2): WebGL draws its own lines 1 px wide whatever they ask.
    var linkGeometry = new THREE.LineSegmentsGeometry();
    linkGeometry.setPositions(segs);
    var linkColours = new Float32Array(segs.length);
    linkGeometry.setColors(linkColours);
    var wideMaterials = [];
    function wideMaterial(options) {
      var m = new THREE.LineMaterial(options);
      wideMaterials.push(m);
      return m;
    }
    scene.add(new THREE.LineSegments2(linkGeometry, wideMaterial({ linewidth: 2.5, vertexColors: THREE.VertexColors })));

    // The Trees mode: each member tree's edges over the links, wider, in the tree's colour (pale
    // until its channel has been used). Trees sharing a directed edge run side by side in lanes
    // across it, so every member's colour shows, as in the app.
    var treeGeometry = null, treeColours = null;
    if (side.trees) {
      var lanes = {}, used = {}, treeSegs = [];
      side.trees.forEach(function (edges) {
        for (var e = 0; e + 1 < edges.length; e += 2) lanes[edges[e] + '>' + edges[e + 1]] = (lanes[edges[e] + '>' + edges[e + 1]] || 0) + 1;
      });
      var ta = new THREE.Vector3(), tb = new THREE.Vector3(), td = new THREE.Vector3(), tside = new THREE.Vector3(), across = new THREE.Vector3();
      side.trees.forEach(function (edges) {
        for (var e = 0; e + 1 < edges.length; e += 2) {
          var key = edges[e] + '>' + edges[e + 1], count = lanes[key], lane = used[key] = (used[key] || 0) + 1;
          ta.fromArray(side.pos, 3 * edges[e]);
          tb.fromArray(side.pos, 3 * edges[e + 1]);
          if (count > 1) {
            td.copy(tb).sub(ta).normalize();
            tside.crossVectors(td, Math.abs(td.y) < 0.9 ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(1, 0, 0)).normalize();
            across.crossVectors(td, tside).normalize().multiplyScalar(0.09 * (lane - 1 - 0.5 * (count - 1)));
            ta.add(across);
            tb.add(across);
          }
          treeSegs.push(ta.x, ta.y, ta.z, tb.x, tb.y, tb.z);
        }
      });
      treeGeometry = new THREE.LineSegmentsGeometry();
      treeGeometry.setPositions(treeSegs);
      treeColours = new Float32Array(treeSegs.length);
      treeGeometry.setColors(treeColours);
      scene.add(new THREE.LineSegments2(treeGeometry, wideMaterial({
        linewidth: 4.5, vertexColors: THREE.VertexColors, polygonOffset: true, polygonOffsetFactor: -1, polygonOffsetUnits: -4 })));
    }

    // The Data held mode: each node's glyph (core dataGlyphCells: a plate, a dark cell per chunk
    // not held, a chunk held whole in its colour ringed, a partial sum's bar by its share) facing
    // the camera in front of its node.
    var glyphs = [];
    if (side.glyphs) {
      var glyphPalette = side.glyphs.colours.map(colour);
      var glyphMaterial = new THREE.MeshBasicMaterial({ vertexColors: THREE.VertexColors, side: THREE.DoubleSide });
      for (var g = 0; g < nodeCount; ++g) {
        var glyphMesh = new THREE.Mesh(new THREE.BufferGeometry(), glyphMaterial);
        glyphMesh.visible = false;
        scene.add(glyphMesh);
        glyphs.push(glyphMesh);
      }
    }
    function paintGlyphs(k) {
      if (!side.glyphs) return;
      var cells = [];
      for (var s = 0; s <= k && s < side.glyphs.steps.length; ++s)
        side.glyphs.steps[s].forEach(function (entry) { cells[entry[0]] = entry[1]; });
      var lift = side.glyphs.width * 0.004;
      glyphs.forEach(function (mesh, v) {
        var c = cells[v] || [];
        if (mesh.userData.cells === c) return; // the same step's cells (a repaint, an unchanged glyph)
        mesh.userData.cells = c;
        var n = c.length / 6, pos = new Float32Array(n * 18), col = new Float32Array(n * 18);
        for (var i = 0; i < n; ++i) {
          var x = c[6 * i], y = c[6 * i + 1], w = c[6 * i + 2], h = c[6 * i + 3], z = (c[6 * i + 5] + 1) * lift;
          pos.set([x, y, z, x + w, y, z, x + w, y + h, z, x, y, z, x + w, y + h, z, x, y + h, z], 18 * i);
          var rgb = glyphPalette[c[6 * i + 4]];
          for (var q = 0; q < 6; ++q) rgb.toArray(col, 18 * i + 3 * q);
        }
        mesh.geometry.dispose();
        mesh.geometry = new THREE.BufferGeometry();
        mesh.geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
        mesh.geometry.setAttribute('color', new THREE.BufferAttribute(col, 3));
        mesh.visible = n > 0;
      });
    }
    var towardCamera = new THREE.Vector3();
    function faceGlyphs() {
      glyphs.forEach(function (mesh, v) {
        mesh.position.fromArray(side.pos, 3 * v);
        towardCamera.copy(camera.position).sub(mesh.position).normalize().multiplyScalar(side.radius * 1.1);
        mesh.position.add(towardCamera);
        mesh.quaternion.copy(camera.quaternion);
      });
    }

    // A mesh's or torus's axes from its low corner, x red, y green, z blue, each named at its end.
    function textSprite(text, colour, plate) {
      var canvas = document.createElement('canvas');
      var g2 = canvas.getContext('2d');
      var font = 'bold 40px "DejaVu Sans", sans-serif';
      g2.font = font;
      canvas.width = Math.pow(2, Math.ceil(Math.log2(g2.measureText(text).width + 28)));
      canvas.height = 64;
      g2.font = font;
      if (plate) {  // the app's label plate: dark, a thin light rim
        var w = g2.measureText(text).width + 20;
        g2.fillStyle = '#101218';
        g2.strokeStyle = '#78808c';
        g2.lineWidth = 3;
        g2.fillRect(2, 6, w, 52);
        g2.strokeRect(2, 6, w, 52);
        canvas.plateWidth = w + 4;
      }
      g2.fillStyle = colour;
      g2.textBaseline = 'middle';
      g2.fillText(text, 12, 33);
      // A constant size on screen (labelPixels, set on resize), as the app's labels have.
      var material = new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), transparent: true, depthTest: false,
                                                sizeAttenuation: false });
      var sprite = new THREE.Sprite(material);
      sprite.renderOrder = 2;
      sprite.canvasWidth = canvas.width;
      sprite.plateFraction = plate ? canvas.plateWidth / canvas.width : 1;
      return sprite;
    }
    var sprites = [];  // every text sprite, sized together on resize
    var spriteScale = 0.05;
    function sizeSprite(sprite) { sprite.scale.set(spriteScale * sprite.canvasWidth / 64, spriteScale, 1); }
    if (side.axes) {
      var ax = side.axes, axisSegs = [], axisColours = [];
      [['x', '#e65a5a'], ['y', '#5ae15a'], ['z', '#78a0ff']].forEach(function (a) {
        if (!ax[a[0]]) return;
        var c = colour(a[1]);
        axisSegs.push.apply(axisSegs, ax.origin.concat(ax[a[0]]));
        axisColours.push(c.r, c.g, c.b, c.r, c.g, c.b);
        var name = textSprite(a[0], a[1], true);
        name.center.set(0.5 * name.plateFraction, 0.5);
        sprites.push(name);
        name.position.fromArray(ax[a[0]]);
        sizeSprite(name);
        scene.add(name);
      });
      var axisGeometry = new THREE.LineSegmentsGeometry();
      axisGeometry.setPositions(axisSegs);
      axisGeometry.setColors(axisColours);
      scene.add(new THREE.LineSegments2(axisGeometry, wideMaterial({ linewidth: 3, vertexColors: THREE.VertexColors })));
    }

    // Node labels where the app puts them (the page's data: a side of each node for its first
    // view), on the app's dark plates; the source's name in its colour.
    var labelPool = [];
    var shownLabels = [];
    var offsets = [[1, 1], [-1, 1], [1, -1], [-1, -1], [1, 0], [-1, 0], [0, 1], [0, -1], [0, 0]];
    var camRight = new THREE.Vector3(), camUp = new THREE.Vector3();
    function placeLabels(list) {
      shownLabels.forEach(function (l) { l.visible = false; });
      shownLabels = [];
      camera.updateMatrixWorld();
      camRight.setFromMatrixColumn(camera.matrixWorld, 0).normalize();
      camUp.setFromMatrixColumn(camera.matrixWorld, 1).normalize();
      (list || []).forEach(function (entry) {
        var v = entry[0], where = offsets[entry[1]] || [1, 1];
        var key = v + (v === side.source ? 's' : '');
        var sprite = labelPool[key];
        if (!sprite) {
          sprite = labelPool[key] = textSprite(side.names[v], v === side.source ? data.colours.source : '#e6e8ec', true);
          sprites.push(sprite);
          sizeSprite(sprite);
          scene.add(sprite);
        }
        // Beside the node on its side, clear of the sphere: kLabelGap (1.05) of its radius, as the
        // app and core's placement keep.
        var gap = side.radius * 1.05;
        sprite.position.fromArray(side.pos, 3 * v)
          .addScaledVector(camRight, where[0] * gap).addScaledVector(camUp, where[1] * gap);
        var f = sprite.plateFraction;
        sprite.center.set(where[0] > 0 ? 0 : where[0] < 0 ? f : f / 2, where[1] > 0 ? 0 : where[1] < 0 ? 1 : 0.5);
        sprite.visible = true;
        shownLabels.push(sprite);
      });
    }
    var staticLabels = !!side.labels;
    if (staticLabels) placeLabels(side.labels);

    // Arrowheads at each receiver of the step at rest (the app's), pointing along the last hop.
    var maxArrows = 1;
    byStep.forEach(function (ts) { maxArrows = Math.max(maxArrows, ts.length); });
    var cone = new THREE.ConeBufferGeometry(side.radius * 0.7, side.radius * 1.5, 12);
    // Drawn last and over everything (with the transparent sprites, after them): a label never
    // hides the direction of a message.
    var arrows = new THREE.InstancedMesh(cone, new THREE.MeshBasicMaterial({ color: C.message, depthTest: false, transparent: true }), maxArrows);
    arrows.renderOrder = 3;
    arrows.count = 0;
    scene.add(arrows);
    var up = new THREE.Vector3(0, 1, 0), dir = new THREE.Vector3(), at = new THREE.Vector3(), from = new THREE.Vector3();
    var turn = new THREE.Quaternion(), one = new THREE.Vector3(1, 1, 1), placed = new THREE.Matrix4();
    this.placeArrows = function (k, shown) {
      var ts = shown && k <= side.steps ? byStep[k] : [];
      for (var i = 0; i < ts.length; ++i) {
        var path = ts[i][3];
        from.fromArray(side.pos, 3 * path[path.length - 2]);
        at.fromArray(side.pos, 3 * path[path.length - 1]);
        dir.subVectors(at, from).normalize();
        at.addScaledVector(dir, -(side.radius * 1.05 + side.radius * 0.75));  // the tip at the sphere
        turn.setFromUnitVectors(up, dir);
        placed.compose(at, turn, one);
        arrows.setMatrixAt(i, placed);
      }
      arrows.count = ts.length;
      arrows.instanceMatrix.needsUpdate = true;
    };

    // Planes side by side: each plane's title ("z = 3") above its top-left node, as a sprite of
    // text drawn on a canvas, its foot on the title's point and its left edge over the plane's.
    (side.titles || []).forEach(function (t) {
      var canvas = document.createElement('canvas');
      var g2 = canvas.getContext('2d');
      var font = 'bold 48px "DejaVu Sans", sans-serif';
      g2.font = font;
      // A power-of-two width, so WebGL 1 need not resize the texture (the text at its left).
      canvas.width = Math.pow(2, Math.ceil(Math.log2(g2.measureText(t[0]).width + 24)));
      canvas.height = 64;
      g2.font = font;
      g2.fillStyle = '#c8cdd7';
      g2.textBaseline = 'middle';
      g2.fillText(t[0], 12, 32);
      var sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), transparent: true }));
      var h = 1.0, w = h * canvas.width / canvas.height;
      sprite.scale.set(w, h, 1);
      sprite.position.set(t[1][0] - 0.25 + w / 2, t[1][1] + h / 2, t[1][2]);
      scene.add(sprite);
    });

    // Planes side by side: a link between two planes is drawn, as an arc, only while a step uses it.
    // Its colour is the frame's (the links' colours, then the jumps', in side.jumps' order).
    var jumpOf = {};
    (side.jumps || []).forEach(function (j, n) { jumpOf[edgeKey(j[0], j[1])] = n; });
    var jumps = null;
    function showJumps(k, linkIndex) {
      var segs = [], colours = [];
      if (side.jumps && k <= side.steps)
        byStep[k].forEach(function (t) {
          for (var i = 0; i + 1 < t[3].length; ++i) {
            var n = jumpOf[edgeKey(t[3][i], t[3][i + 1])];
            if (n === undefined) continue;
            var pts = side.jumps[n][2], c = frameColours[linkIndex[side.edges.length + n]];
            for (var q = 0; q + 5 < pts.length; q += 3) {
              segs.push(pts[q], pts[q + 1], pts[q + 2], pts[q + 3], pts[q + 4], pts[q + 5]);
              colours.push(c.r, c.g, c.b, c.r, c.g, c.b);
            }
          }
        });
      if (jumps) scene.remove(jumps);
      jumps = null;
      if (!segs.length) return;
      var geometry = new THREE.LineSegmentsGeometry();
      geometry.setPositions(segs);
      geometry.setColors(colours);
      jumps = new THREE.LineSegments2(geometry, jumpMaterial);
      scene.add(jumps);
    }
    var jumpMaterial = wideMaterial({ linewidth: 2.5, vertexColors: THREE.VertexColors });

    // Messages in flight while playing: white dots travelling each transfer's route.
    var dotCanvas = document.createElement('canvas');
    dotCanvas.width = dotCanvas.height = 64;
    var g = dotCanvas.getContext('2d');
    g.fillStyle = '#ffffff';
    g.beginPath();
    g.arc(32, 32, 28, 0, 2 * Math.PI);
    g.fill();
    var maxDots = 1;
    byStep.forEach(function (ts) { maxDots = Math.max(maxDots, ts.length); });
    var dotGeometry = new THREE.BufferGeometry();
    dotGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * maxDots), 3));
    var dots = new THREE.Points(dotGeometry, new THREE.PointsMaterial({
      color: C.message, size: side.radius * 1.6, map: new THREE.CanvasTexture(dotCanvas), transparent: true,
      alphaTest: 0.5, sizeAttenuation: true }));
    dots.visible = false;
    scene.add(dots);

    // The colours of the mode the page was made in, as the app's 3-D view draws them: step 0
    // whole, each later step as the [index, colour] pairs that changed (see framesOf in
    // app/export/webpage.cpp).
    var frames = side.frames;
    var frameColours = frames.colours.map(colour);
    function colourIndices(list, k) {
      var now = list[0].slice();
      for (var s = 1; s <= k && s < list.length; ++s)
        for (var i = 0; i + 1 < list[s].length; i += 2) now[list[s][i]] = list[s][i + 1];
      return now;
    }

    this.holders = function (k) {
      var n = 0;
      for (var v = 0; v < nodeCount; ++v) if (side.informed[v] >= 0 && side.informed[v] <= k) ++n;
      return n;
    };

    // The picture of step k (the side's own step: a shorter schedule holds its last state).
    this.paint = function (k, marks, graded) {
      var nodeIndex = colourIndices(frames.nodes, k), linkIndex = colourIndices(frames.links, k);
      for (var v = 0; v < nodeCount; ++v) {
        var c;
        if (marks && marks[v]) c = P.marked;
        else if (graded && graded.right[v]) c = P.right;
        else if (graded && graded.missed[v]) c = P.missed;
        else if (graded && graded.wrong[v]) c = P.wrong;
        else c = frameColours[nodeIndex[v]];
        for (var j = 0; j < perNode; ++j) c.toArray(nodeColours, 3 * (v * perNode + j));
      }
      nodeGeometry.attributes.color.needsUpdate = true;
      for (var i = 0; i < segEdge.length; ++i) {
        var lc = frameColours[linkIndex[segEdge[i]]];
        lc.toArray(linkColours, 6 * i);
        lc.toArray(linkColours, 6 * i + 3);
      }
      linkGeometry.setColors(linkColours);
      showJumps(k, linkIndex);
      if (treeGeometry) {
        var treeIndex = colourIndices(frames.trees, k);
        for (var t = 0; t < treeIndex.length; ++t) {
          frameColours[treeIndex[t]].toArray(treeColours, 6 * t);
          frameColours[treeIndex[t]].toArray(treeColours, 6 * t + 3);
        }
        treeGeometry.setColors(treeColours);
      }
      paintGlyphs(k);
      if (!staticLabels && side.stepLabels) placeLabels(side.stepLabels[k]);
      self.placeArrows(k, !playing);
      narration.textContent = side.narration[k] || '';
      holdersText.textContent = self.holders(k) + ' of ' + nodeCount + ' nodes hold the data';
    };

    // Dots a fraction f of the way along step k's routes; none when f < 0.
    this.placeDots = function (k, f) {
      if (f < 0 || k > side.steps) { dots.visible = false; return; }
      var arr = dotGeometry.attributes.position.array;
      var ts = byStep[k];
      for (var i = 0; i < ts.length; ++i) {
        var path = ts[i][3];
        var hops = path.length - 1;
        var at = Math.min(hops - 1e-6, Math.max(0, f * hops));
        var h = Math.floor(at), r = at - h;
        var a = path[h], b = path[Math.min(h + 1, hops)];
        for (var d = 0; d < 3; ++d) arr[3 * i + d] = side.pos[3 * a + d] * (1 - r) + side.pos[3 * b + d] * r;
      }
      dotGeometry.setDrawRange(0, ts.length);
      dotGeometry.attributes.position.needsUpdate = true;
      dots.visible = ts.length > 0;
    };

    var ray = new THREE.Raycaster();
    var mouse = new THREE.Vector2();
    // The node under the pointer, or -1.
    this.nodeAt = function (ev) {
      var r = renderer.domElement.getBoundingClientRect();
      mouse.x = ((ev.clientX - r.left) / r.width) * 2 - 1;
      mouse.y = -((ev.clientY - r.top) / r.height) * 2 + 1;
      ray.setFromCamera(mouse, camera);
      var hit = ray.intersectObject(nodeMesh)[0];
      return hit ? Math.floor(hit.face.a / perNode) : -1;
    };
    renderer.domElement.addEventListener('mousemove', function (ev) {
      var v = self.nodeAt(ev);
      if (v < 0) { tip.hidden = true; return; }
      var k = Math.min(step, side.steps);
      var state;
      if (v === side.source) state = 'the source';
      else if (side.informed[v] < 0) state = 'never receives';
      else if (side.informed[v] === k) state = 'receives in this step';
      else if (side.informed[v] < k) state = 'holds the data since step ' + side.informed[v];
      else state = 'receives in step ' + side.informed[v];
      var r = renderer.domElement.getBoundingClientRect();
      tip.textContent = side.names[v] + ': ' + state;
      tip.style.left = (ev.clientX - r.left + 14) + 'px';
      tip.style.top = (ev.clientY - r.top + 14) + 'px';
      tip.hidden = false;
    });
    renderer.domElement.addEventListener('mouseleave', function () { tip.hidden = true; });
    this.canvas = renderer.domElement;

    // The camera frames the drawing for a 16:9 view; a narrower view zooms out (the same
    // direction, further away) until the drawing's width fits again, a wider one keeps it.
    var eye0 = new THREE.Vector3().fromArray(side.camera.eye);
    var centre0 = new THREE.Vector3().fromArray(side.camera.centre);
    var framed = true;
    controls.addEventListener('start', function () { framed = false; });
    this.resize = function () {
      var w = view.clientWidth, hgt = Math.max(240, view.clientHeight);
      renderer.setSize(w, hgt);
      wideMaterials.forEach(function (m) { m.resolution.set(w, hgt); });
      // Plates 26 px high (16-px type) in a full-width view, down to 18 px in a half one: a sprite
      // of scale s is s · cot(fov / 2) · height / 2 pixels high.
      var plate = Math.max(18, Math.min(26, 26 * w / 1280));
      spriteScale = 2 * plate / (hgt / Math.tan(camera.fov * Math.PI / 360));
      sprites.forEach(sizeSprite);
      camera.aspect = w / hgt;
      if (framed) {
        var back = Math.max(1, (16 / 9) / camera.aspect);
        camera.position.copy(centre0).add(eye0.clone().sub(centre0).multiplyScalar(back));
        controls.update();
      }
      camera.updateProjectionMatrix();
    };
    this.render = function () { faceGlyphs(); renderer.render(scene, camera); };
  }

  if (data.sides.length > 1) document.body.classList.add('compare');  // two views: shorter, so Play stays in the window
  var sidesRoot = el('sides');
  var sides = data.sides.map(function (side, i) { return new Side(side, i === 0 ? '' : '-b', sidesRoot); });
  var first = sides[0];

  // ---- predict mode: guess the next step's receivers (the first side), then check ----------------
  var nameIndex = {};
  first.side.names.forEach(function (n, v) { nameIndex[n.replace(/\s+/g, '')] = v; });
  function receiversOf(k) {
    var r = {};
    (first.byStep[k] || []).forEach(function (t) { r[t[2]] = true; });
    return r;
  }
  function namesOf(set) {
    var out = Object.keys(set).map(function (v) { return first.side.names[v]; });
    return out.length ? out.join(' ') : 'none';
  }
  // "(5,2) (1,5)", "(5,2);(1,5)" or hypercube addresses "0101 0011": the node of each name.
  function parseGuess(text) {
    var marks = {};
    var tokens = text.match(/\([^()]*\)|[^\s;()]+/g) || [];
    for (var i = 0; i < tokens.length; ++i) {
      var v = nameIndex[tokens[i].replace(/\s+/g, '')];
      if (v === undefined)
        return { error: tokens[i] + ' is not a node of this network (names look like ' + first.side.names[first.nodeCount - 1] + ')' };
      marks[v] = true;
    }
    return { marks: marks };
  }
  function askText() {
    return step < stepCount ? 'Which nodes receive in step ' + (step + 1) + '? Click them (or type their names), then Check.'
      : 'This is the last step: go back to start predicting.';
  }
  function updatePredictPanel() {
    el('predict').setAttribute('aria-pressed', predict.on ? 'true' : 'false');
    el('predict-panel').hidden = !predict.on;
    el('predict-step').textContent = String(Math.min(step + 1, stepCount));
    el('score').textContent = 'Score: ' + predict.right + ' right, ' + predict.missed + ' missed, ' + predict.wrong +
      ' wrong over ' + predict.steps + (predict.steps === 1 ? ' step' : ' steps');
  }
  function setPredict(on) {
    predict.on = on && sides.length === 1;
    document.body.classList.toggle('predicting', predict.on);
    predict.marks = {};
    predict.graded = null;
    el('guess').value = '';
    el('verdict').textContent = predict.on ? askText() : '';
    if (predict.on) setPlaying(false);
    updatePredictPanel();
    paint();
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
  if (sides.length > 1) el('predict-bar').hidden = true;  // predict one schedule at a time
  el('predict').addEventListener('click', function () { setPredict(!predict.on); });
  el('check').addEventListener('click', checkGuess);
  el('guess').addEventListener('input', function () {
    var parsed = parseGuess(el('guess').value);
    if (!parsed.error) { predict.marks = parsed.marks; predict.graded = null; paint(); }
  });
  el('guess').addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') { ev.preventDefault(); checkGuess(); }
  });
  var down = null;
  first.canvas.addEventListener('mousedown', function (ev) { down = [ev.clientX, ev.clientY]; });
  first.canvas.addEventListener('click', function (ev) {
    if (!predict.on || !down || Math.abs(ev.clientX - down[0]) + Math.abs(ev.clientY - down[1]) > 4) return;
    var v = first.nodeAt(ev);
    if (v < 0) return;
    predict.graded = null;
    if (predict.marks[v]) delete predict.marks[v]; else predict.marks[v] = true;
    el('guess').value = Object.keys(predict.marks).map(function (u) { return first.side.names[u]; }).join(' ');
    paint();
  });

  // ---- the timeline ---------------------------------------------------------------------------------
  function paint() {
    sides.forEach(function (s, i) {
      var k = Math.min(step, s.side.steps);
      var graded = i === 0 && predict.on && predict.graded && predict.graded.step === step ? predict.graded : null;
      s.paint(k, i === 0 && predict.on && !graded ? predict.marks : null, graded);
    });
  }

  function show(k) {
    step = Math.max(0, Math.min(stepCount, k));
    if (predict.graded && predict.graded.step !== step) predict.graded = null;
    paint();
    el('step-counter').textContent = 'Step ' + step + ' of ' + stepCount;
    el('slider').value = String(step);
    if (predict.on) {
      updatePredictPanel();
      if (!predict.graded) el('verdict').textContent = askText();
    }
    document.body.setAttribute('data-step', String(step));
    if (history.replaceState) history.replaceState(null, '', '#step=' + step);
  }

  function setPlaying(on) {
    playing = on && stepCount > 0;
    el('play').textContent = playing ? 'Pause' : 'Play';
    el('play').setAttribute('aria-pressed', playing ? 'true' : 'false');
    if (!playing) sides.forEach(function (s) { s.placeDots(0, -1); });
    // Arrowheads mark a step at rest; while the dots travel they would point ahead of them.
    sides.forEach(function (s) { s.placeArrows(Math.min(step, s.side.steps), !playing); });
    fraction = 0;
    last = performance.now();
  }

  el('first').addEventListener('click', function () { setPlaying(false); show(0); });
  el('back').addEventListener('click', function () { setPlaying(false); show(step - 1); });
  el('forward').addEventListener('click', function () { setPlaying(false); show(step + 1); });
  el('last').addEventListener('click', function () { setPlaying(false); show(stepCount); });
  el('play').addEventListener('click', function () {
    if (predict.on) {
      el('verdict').textContent = 'Predict mode: Check your guess to see the next step (or leave predict mode to play).';
      return;
    }
    if (!playing && step >= stepCount) show(0);
    setPlaying(!playing);
  });
  el('slider').max = String(stepCount);
  el('slider').addEventListener('input', function () { setPlaying(false); show(parseInt(el('slider').value, 10)); });
  document.addEventListener('keydown', function (ev) {
    if (ev.target && ev.target.tagName === 'INPUT' && ev.target.type !== 'range') return;
    if ((ev.key === 'p' || ev.key === 'P') && sides.length === 1) { setPredict(!predict.on); return; }
    if (ev.key === 'Enter' && predict.on) { ev.preventDefault(); checkGuess(); return; }
    if (ev.key === ' ') { ev.preventDefault(); el('play').click(); }
    else if (ev.key === 'ArrowRight') { setPlaying(false); show(step + 1); }
    else if (ev.key === 'ArrowLeft') { setPlaying(false); show(step - 1); }
    else if (ev.key === 'Home') { setPlaying(false); show(0); }
    else if (ev.key === 'End') { setPlaying(false); show(stepCount); }
  });

  function resize() { sides.forEach(function (s) { s.resize(); }); }
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
      if (playing && step < stepCount) sides.forEach(function (s) { s.placeDots(step + 1, fraction); });
    }
    sides.forEach(function (s) { s.render(); });
    requestAnimationFrame(frame);
  }

  // ---- texts ----------------------------------------------------------------------------------------
  el('title').textContent = data.title;
  document.title = data.title + ' — topocast';
  el('description').textContent = data.description;
  el('facts').textContent = data.facts;
  var legend = el('legend');
  el('legend-title').textContent = 'Legend: ' + data.mode;  // the colouring, as the app's Colour by names it
  data.legend.concat([['#ffffff', 'predict: your guess', 1], ['#1ad9b3', 'predict: right', 1],
                      ['#d55e00', 'predict: missed', 1], ['#f259d9', 'predict: wrong', 1]]).forEach(function (entry) {
    var li = document.createElement('li');
    if (entry[2]) li.className = 'predict-only';
    var sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = entry[0];
    li.appendChild(sw);
    li.appendChild(document.createTextNode(entry[1]));
    legend.appendChild(li);
  });
  // The scale of a mode that maps numbers to colours (heat map, source map), as the app shows it.
  if (data.bar) {
    var bar = document.createElement('div');
    bar.id = 'colour-bar';
    var caption = document.createElement('p');
    caption.textContent = data.bar.caption;
    var ramp = document.createElement('div');
    ramp.className = 'ramp';
    ramp.style.background = 'linear-gradient(to right, ' + data.bar.stops.join(', ') + ')';
    var ticks = document.createElement('div');
    ticks.className = 'ticks';
    data.bar.labels.forEach(function (l) {
      var t = document.createElement('span');
      t.textContent = l[1];
      t.style.left = (100 * l[0]) + '%';
      ticks.appendChild(t);
    });
    bar.appendChild(caption);
    bar.appendChild(ramp);
    bar.appendChild(ticks);
    legend.parentNode.appendChild(bar);
  }
  updatePredictPanel();

  var m = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
  resize();
  show(m ? parseInt(m[1], 10) : 0);
  sides.forEach(function (s) { s.render(); });
  // Where the controls end in this window (a test holds a compare page's Play inside 1000 px).
  document.body.setAttribute('data-controls-bottom', String(Math.round(el('controls').getBoundingClientRect().bottom)));
  document.body.setAttribute('data-ready', 'true');
  requestAnimationFrame(frame);
})();
