# A release tarball in make dist's layout (esmsim-VERSION-linux-x86_64/esmsim) holding the program
# under test, served on 127.0.0.1 by Python's http.server.
serve_tarball <- function() {
  root <- tempfile("release-")
  name <- "esmsim-9.9.9-linux-x86_64"
  dir.create(file.path(root, name), recursive = TRUE)
  file.copy(esmsim_path(), file.path(root, name, "esmsim"))
  withr::with_dir(root, utils::tar(paste0(name, ".tar.gz"), name, compression = "gzip", tar = "internal"))
  port <- httpuv_free_port()
  server <- processx::process$new("python3", c("-m", "http.server", port, "--bind", "127.0.0.1", "--directory", root),
                                  stdout = NULL, stderr = NULL)
  url <- sprintf("http://127.0.0.1:%d/%s.tar.gz", port, name)
  for (i in 1:50) {
    con <- url(sprintf("http://127.0.0.1:%d/", port))
    ok <- tryCatch({ suppressWarnings(readLines(con, n = 1)); TRUE }, error = function(e) FALSE)
    try(close(con), silent = TRUE)
    if (ok) break
    Sys.sleep(0.1)
  }
  list(url = url, sha256 = esmsim:::file_sha256(file.path(root, paste0(name, ".tar.gz"))), server = server, name = name)
}

httpuv_free_port <- function() {
  for (i in 1:20) {
    port <- sample(20000:40000, 1)
    free <- tryCatch({
      con <- suppressWarnings(socketConnection("127.0.0.1", port, open = "r", timeout = 0.2))
      close(con)
      FALSE
    }, error = function(e) TRUE)
    if (free) return(port)
  }
  stop("no free port")
}

test_that("install_esmsim downloads, checks the SHA-256 and unpacks where esmsim_path looks; a wrong checksum leaves nothing", {
  skip_without_esmsim()
  skip_if(!nzchar(Sys.which("python3")), "python3 is needed to serve the tarball")
  release <- serve_tarball()
  on.exit(release$server$kill(), add = TRUE)
  dir <- tempfile("esmsim-data-")
  # A wrong checksum: refused, nothing unpacked, no staging left.
  expect_error(install_esmsim(release$url, sha256 = strrep("0", 64), dir = dir, quiet = TRUE), "SHA-256")
  expect_length(list.files(dir, all.files = TRUE, no.. = TRUE), 0)
  expect_error(install_esmsim(release$url, sha256 = "abc", dir = dir), "sha256")
  expect_error(install_esmsim(NULL, sha256 = release$sha256, dir = dir), "no release address")
  # The right one: installed, and the program runs.
  expect_message(path <- install_esmsim(release$url, sha256 = release$sha256, dir = dir), "SHA-256 checked")
  expect_equal(normalizePath(path), normalizePath(file.path(dir, release$name, "esmsim")))
  expect_true(file.access(path, 1) == 0)
  expect_match(processx::run(path, "--version")$stdout, "^[0-9]")
  expect_equal(list.files(dir), release$name)
})
