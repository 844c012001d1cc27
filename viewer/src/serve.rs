//! A small static file server for a written site, on 127.0.0.1 only: `GET` and `HEAD`, one
//! thread per connection, every response closes its connection. A request path is decoded and
//! refused (403) if any segment is `..` or the file it names lies outside the site's directory
//! (a symbolic link leading out); a missing file is 404; content types follow the extension.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long a connection may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// The content type of a file, by its extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "md" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Why a request path gets no file.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// 403: it tries to leave the site's directory.
    Outside,
    /// 404: there is no such file.
    Missing,
    /// 400: it is not a path (no leading `/`, or a bad `%` escape).
    Malformed,
}

/// `%XX` escapes decoded; `None` if one is malformed or the result is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file a request target names inside `root` (a canonical directory): the query and
/// fragment dropped, escapes decoded, `/` and directories meaning their `index.html`.
pub fn resolve(root: &Path, target: &str) -> Result<PathBuf, Refused> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let path = path.strip_prefix('/').ok_or(Refused::Malformed)?;
    let decoded = percent_decode(path).ok_or(Refused::Malformed)?;
    let mut file = root.to_path_buf();
    for segment in decoded.split('/').filter(|s| !s.is_empty()) {
        if segment == ".." || segment == "." || segment.contains(['\\', '\0']) {
            return Err(Refused::Outside);
        }
        file.push(segment);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let real = file.canonicalize().map_err(|_| Refused::Missing)?;
    if !real.starts_with(root) {
        return Err(Refused::Outside);
    }
    if !real.is_file() {
        return Err(Refused::Missing);
    }
    Ok(real)
}

/// Serves the site in `root` on `listener` until `stop` is raised (checked every 50 ms).
pub fn serve(root: &Path, listener: TcpListener, stop: &AtomicBool) -> std::io::Result<()> {
    let root = root.canonicalize()?;
    listener.set_nonblocking(true)?;
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let root = root.clone();
                std::thread::spawn(move || {
                    // A client that goes away mid-answer is its own business.
                    let _ = answer(&root, stream);
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(50))
            }
            // A connection reset before it was accepted, or similar: the next one may be fine.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::ConnectionReset
                        | std::io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads one request and writes its response.
fn answer(root: &Path, stream: TcpStream) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut head = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let room = (MAX_HEAD - head.len()) as u64;
        (&mut reader).take(room).read_until(b'\n', &mut line)?;
        if !line.ends_with(b"\n") {
            // The connection closed, or the head is longer than we read.
            return respond(
                stream,
                400,
                "text/plain; charset=utf-8",
                b"bad request\n",
                false,
            );
        }
        head.extend_from_slice(&line);
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    let request = String::from_utf8_lossy(&head);
    let mut words = request.lines().next().unwrap_or("").split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return respond(
            stream,
            405,
            "text/plain; charset=utf-8",
            b"only GET and HEAD\n",
            false,
        );
    }
    match resolve(root, target) {
        Ok(file) => match std::fs::read(&file) {
            Ok(bytes) => respond(stream, 200, content_type(&file), &bytes, head_only),
            Err(_) => respond(
                stream,
                404,
                "text/plain; charset=utf-8",
                b"not found\n",
                head_only,
            ),
        },
        Err(Refused::Outside) => respond(
            stream,
            403,
            "text/plain; charset=utf-8",
            b"forbidden: outside the site\n",
            head_only,
        ),
        Err(Refused::Missing) => respond(
            stream,
            404,
            "text/plain; charset=utf-8",
            b"not found\n",
            head_only,
        ),
        Err(Refused::Malformed) => respond(
            stream,
            400,
            "text/plain; charset=utf-8",
            b"bad request\n",
            head_only,
        ),
    }
}

/// Writes a whole response and closes the connection.
fn respond(
    mut stream: TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
    head_only: bool,
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let head = format!("HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n", body.len());
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_site() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("index.html"), "x").unwrap();
        std::fs::write(root.join("a b.html"), "x").unwrap();
        assert_eq!(resolve(&root, "/"), Ok(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/a%20b.html?x=1#y"),
            Ok(root.join("a b.html"))
        );
        for bad in [
            "/../etc/passwd",
            "/%2e%2e/x",
            "/..%2f..%2fetc%2fpasswd",
            "/x/../../y",
            "/a\\..\\b",
        ] {
            assert_eq!(resolve(&root, bad), Err(Refused::Outside), "{bad}");
        }
        assert_eq!(resolve(&root, "/nothing.html"), Err(Refused::Missing));
        assert_eq!(resolve(&root, "nothing"), Err(Refused::Malformed));
        assert_eq!(resolve(&root, "/%zz"), Err(Refused::Malformed));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", root.join("out")).unwrap();
            assert_eq!(resolve(&root, "/out/hostname"), Err(Refused::Outside));
        }
    }
}
