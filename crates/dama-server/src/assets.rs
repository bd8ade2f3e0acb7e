//! The browser UI, embedded in the binary (see `build.rs`), served with content types and
//! security headers. Every page path the UI routes (`/`, `/g/…`, `/join/…`, `/lobby`,
//! `/import`, `/replay`) gets `index.html`; the UI's router takes over from there.

use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

pub use embedded::FILES;

/// The content type of a file name.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path` (relative to `web/app`).
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

const CSP: &str = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; \
                   style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; \
                   frame-ancestors 'none'";

fn respond(path: &str, body: &'static [u8]) -> Response {
    let mut res = (StatusCode::OK, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    // Small files, always revalidated, so a new server version is seen at once.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    res
}

/// Whether a path is one of the UI's pages.
fn is_page(path: &str) -> bool {
    path == "/"
        || ["/g/", "/join/"].iter().any(|p| path.starts_with(p))
        || ["/lobby", "/import", "/replay", "/new"].contains(&path)
}

/// Serves a static file or a page.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path();
    if let Some(rel) = path.strip_prefix("/app/") {
        if let Some(body) = file(rel) {
            return respond(rel, body);
        }
    } else if is_page(path) {
        if let Some(body) = file("index.html") {
            return respond("index.html", body);
        }
    } else if path == "/favicon.ico" {
        if let Some(body) = file("favicon.svg") {
            return respond("favicon.svg", body);
        }
    }
    (StatusCode::NOT_FOUND, "not found").into_response()
}
