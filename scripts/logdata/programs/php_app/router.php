<?php
// A small JSON API served by `php -S` for scripts/logdata/php_server.sh: routes with a warning,
// a deprecation, an uncaught exception, a fatal error and 404s, so the built-in server's log has them.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
header('Content-Type: application/json');
if ($path === '/health') {
    echo '{"ok":true}';
} elseif (preg_match('#^/api/items/(\d+)$#', $path, $m)) {
    $id = (int)$m[1];
    $items = [1 => 'bolt', 2 => 'nut', 3 => 'washer'];
    if ($id === 7) {
        echo json_encode(['id' => $id, 'name' => $items[$id]]);  // Warning: undefined array key
    } else {
        echo json_encode(['id' => $id, 'name' => $items[$id % 3 + 1]]);
    }
} elseif ($path === '/api/report') {
    $total = strlen(null);  // Deprecated: passing null
    echo json_encode(['total' => $total]);
} elseif ($path === '/api/export') {
    throw new RuntimeException('export backend unavailable: connection refused (store-2:7000)');
} elseif ($path === '/api/fatal') {
    undefined_function_call();
} elseif ($path === '/static/app.css' || $path === '/favicon.ico') {
    return false;  // served from the document root (or 404)
} else {
    http_response_code(404);
    echo '{"error":"not found"}';
}
