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
  expect_message(path <- install_esmsim(release$url, sha256 = release$sha256, dir = dir), "SHA-256 checked; esmsim --version: [0-9]")
  expect_equal(normalizePath(path), normalizePath(file.path(dir, release$name, "esmsim")))
  expect_true(file.access(path, 1) == 0)
  expect_match(processx::run(path, "--version")$stdout, "^[0-9]")
  expect_equal(list.files(dir), release$name)
})

# A tarball written member by member, as a hostile server might shape it (Python's tarfile).
hostile_tarball <- function(root, name, script) {
  path <- file.path(root, paste0(name, ".tar.gz"))
  code <- sprintf(paste(
    "import tarfile, io, sys",
    "t = tarfile.open(sys.argv[1], 'w:gz', format=tarfile.GNU_FORMAT)",
    "def add(n, data=b'x', kind=tarfile.REGTYPE, link=''):",
    "    i = tarfile.TarInfo(n); i.type = kind; i.linkname = link; i.size = len(data) if kind == tarfile.REGTYPE else 0",
    "    t.addfile(i, io.BytesIO(data) if kind == tarfile.REGTYPE else None)",
    "%s",
    "t.close()", sep = "\n"), script)
  processx::run("python3", c("-c", code, path))
  path
}

test_that("install_esmsim checks every member before writing: links, absolute paths and .. are refused, nothing written", {
  skip_if(!nzchar(Sys.which("python3")), "python3 is needed to write the tarballs")
  root <- tempfile("hostile-")
  dir.create(root)
  name <- "esmsim-9.9.9-linux-x86_64"
  outside <- file.path(root, "outside.txt")
  writeLines("keep", outside)
  cases <- list(
    link = sprintf("add('%s/esmsim', kind=tarfile.SYMTYPE, link='%s')", name, outside),
    link_then_file = sprintf("add('%s/x', kind=tarfile.SYMTYPE, link='%s'); add('%s/x', b'overwritten')", name, outside, name),
    hard_link = sprintf("add('%s/esmsim', kind=tarfile.LNKTYPE, link='%s')", name, outside),
    absolute = "add('/tmp/esmsim-evil')",
    dotdot = sprintf("add('%s/../../evil')", name),
    elsewhere = "add('other/esmsim')"
  )
  for (case in names(cases)) {
    tarball <- hostile_tarball(root, name, cases[[case]])
    dir <- tempfile("esmsim-data-")
    url <- paste0("file://", tarball)
    expect_error(install_esmsim(url, sha256 = esmsim:::file_sha256(tarball), dir = dir, quiet = TRUE),
                 "only regular files and folders", info = case)
    expect_length(list.files(dir, all.files = TRUE, no.. = TRUE), 0)
    expect_equal(readLines(outside), "keep", info = case)
    expect_equal(unname(file.access(outside, 1)), -1L, info = case)
  }
})

test_that("install_esmsim refuses a program that does not run here, says the download's HTTP status, and picks the newest version", {
  skip_if(!nzchar(Sys.which("python3")), "python3 is needed to write the tarballs")
  root <- tempfile("broken-")
  dir.create(root)
  name <- "esmsim-9.9.9-linux-x86_64"
  tarball <- hostile_tarball(root, name, sprintf("add('%s/esmsim', b'not a program')", name))
  dir <- tempfile("esmsim-data-")
  expect_error(install_esmsim(paste0("file://", tarball), sha256 = esmsim:::file_sha256(tarball), dir = dir, quiet = TRUE),
               "does not run on this machine")
  expect_length(list.files(dir, all.files = TRUE, no.. = TRUE), 0)
  # Versions compared as versions: 0.10.0 is newer than 0.9.0.
  for (v in c("0.9.0", "0.10.0", "0.2.0")) {
    d <- file.path(dir, sprintf("esmsim-%s-linux-x86_64", v))
    dir.create(d, recursive = TRUE)
    writeLines("#!/bin/sh\necho 1", file.path(d, "esmsim"))
    Sys.chmod(file.path(d, "esmsim"), "0755")
  }
  expect_equal(basename(dirname(esmsim:::newest_installed(dir))), "esmsim-0.10.0-linux-x86_64")
  # One folder for R and Python: XDG_DATA_HOME/esmsim.
  withr::with_envvar(c(XDG_DATA_HOME = "/some/where"), expect_equal(esm_install_dir(), "/some/where/esmsim"))
  # Not found: the one-line install is named.
  withr::with_envvar(c(ESMSIM = "", PATH = "/nonexistent", XDG_DATA_HOME = tempfile()), withr::with_options(
    list(esmsim.path = NULL),
    expect_error(esmsim_path(), "install_esmsim\\(url, sha256")))
  skip_without_esmsim()
  release <- serve_tarball()
  on.exit(release$server$kill(), add = TRUE)
  missing <- sub("\\.tar\\.gz$", "", release$url)
  expect_error(install_esmsim(paste0(sub("esmsim-9.9.9", "esmsim-1.0.0", missing), ".tar.gz"), sha256 = strrep("0", 64),
                              dir = dir, quiet = TRUE), "404")
})
