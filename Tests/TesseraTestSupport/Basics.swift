// The codec-free helpers live apart so TesseraFilesTests builds without the decoders; every other test
// target reaches them through this module as before.
@_exported import TesseraTestBasics
